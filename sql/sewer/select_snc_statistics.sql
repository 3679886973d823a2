-- Every judged daily maximum and monthly average (statistic_results) with the first
-- day of its period; the asset puts each in the period of significant noncompliance
-- (40 CFR 403.8(f)(2)(viii)(A) and (B) count every numeric limit) that the rules in
-- effect on that day define. A statistic with no value (no results) is not a measurement.
SELECT user_id, parameter, statistic, period_start AS statistic_start, value, limit_value, passes
FROM statistic_results
WHERE value IS NOT NULL AND limit_value IS NOT NULL AND statistic IN ('daily_max', 'monthly_avg')
ORDER BY user_id, parameter, statistic_start, statistic;
