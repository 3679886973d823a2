-- Daily-maximum and monthly-average periods strictly above their limit.
INSERT INTO statistic_violations BY NAME
SELECT user_id, parameter, statistic, period_start, period_end, value, limit_value, unit, samples,
       nondetects, nondetect_policy, limit_source, exceedance_ratio, rule
FROM statistic_results
WHERE NOT passes
ORDER BY user_id, parameter, statistic, period_start
