-- Sample results that break a per-sample limit (discharge_evaluations, outcome
-- 'violation'), collected by $as_of, for notices of violation (the sewer use
-- law, enforcement), each with:
-- - the next decided result of the same user and parameter after it (a sample's
--   outcome: violation when it breaks any limit, compliant when it complies with
--   every limit, else inconclusive, which decides nothing and is passed over);
-- - the date of the first later compliant result;
-- - the user's name and address (industrial_users) and current permit (user_permits, contract 8.2).
-- Results collected after $as_of are not seen.
WITH samples AS (
    SELECT user_id, parameter, sample_id, min(collected_at) AS collected_at,
           min(collected_date) AS collected_date, any_value(value) AS value,
           CASE WHEN bool_or(outcome = 'violation') THEN 'violation'
                WHEN bool_and(outcome = 'compliant') THEN 'compliant'
                ELSE 'inconclusive' END AS outcome
    FROM discharge_evaluations
    WHERE collected_date <= $as_of
    GROUP BY user_id, parameter, sample_id
),
decided AS (SELECT * FROM samples WHERE outcome IN ('compliant', 'violation')),
users AS (
    SELECT user_id, arg_max(name, coalesce(permit_effective, DATE '0001-01-01')) AS name,
           arg_max(address, coalesce(permit_effective, DATE '0001-01-01')) AS address
    FROM industrial_users GROUP BY user_id
),
current_permits AS (SELECT user_id, permit_no FROM user_permits WHERE is_current),
violations AS (
    SELECT user_id, sample_id, parameter, collected_at, collected_date, sample_type, value, unit,
           limit_value, limit_type, limit_source, rule
    FROM discharge_evaluations
    WHERE outcome = 'violation' AND collected_date <= $as_of
)
SELECT v.*, u.name, u.address, p.permit_no,
       n.sample_id AS next_sample_id, n.collected_date AS next_collected_date, n.value AS next_value,
       n.outcome AS next_outcome, c.collected_date AS first_compliant_on
FROM violations v
LEFT JOIN users u USING (user_id)
LEFT JOIN current_permits p USING (user_id)
LEFT JOIN LATERAL (
    SELECT d.sample_id, d.collected_date, d.value, d.outcome FROM decided d
    WHERE d.user_id = v.user_id AND d.parameter = v.parameter AND d.collected_at > v.collected_at
      AND d.sample_id <> v.sample_id
    ORDER BY d.collected_at, d.sample_id LIMIT 1
) n ON TRUE
LEFT JOIN LATERAL (
    SELECT d.collected_date FROM decided d
    WHERE d.user_id = v.user_id AND d.parameter = v.parameter AND d.collected_at > v.collected_at
      AND d.sample_id <> v.sample_id
      AND d.outcome = 'compliant'
    ORDER BY d.collected_at, d.sample_id LIMIT 1
) c ON TRUE
ORDER BY v.user_id, v.collected_at, v.sample_id, v.parameter, v.limit_type
