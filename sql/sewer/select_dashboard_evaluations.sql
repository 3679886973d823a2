-- Per-sample evaluations (one row per result and limit), for outcomes and limit lines.
SELECT user_id, sample_id, parameter, collected_at, limit_type, limit_value, unit, rule, limit_source,
       outcome, exceedance_ratio
FROM discharge_evaluations
WHERE limit_value IS NOT NULL
ORDER BY user_id, parameter, limit_type, collected_at;
