-- Every sample result of one year ($year) that broke a per-sample limit, for the annual report.
SELECT user_id, sample_id, parameter, collected_at::DATE AS collected_on, value, unit, limit_value,
       limit_type, rule
FROM discharge_violations
WHERE year(collected_at::DATE) = $year
ORDER BY user_id, collected_at, parameter;
