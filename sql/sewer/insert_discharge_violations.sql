-- Sample results that break a per-sample limit (contract table discharge_violations).
INSERT INTO discharge_violations BY NAME
SELECT user_id, sample_id, parameter, collected_at, value, unit, limit_value, limit_type, rule,
       limit_source, exceedance_ratio, sample_type
FROM discharge_evaluations
WHERE outcome = 'violation'
ORDER BY user_id, collected_at, sample_id, parameter, limit_type
