-- Every daily maximum and monthly average of one year ($year) above its limit, for the annual report.
SELECT user_id, parameter, statistic, period_start, period_end, value, limit_value, unit, rule
FROM statistic_violations
WHERE year(period_start) = $year
ORDER BY user_id, period_start, parameter, statistic;
