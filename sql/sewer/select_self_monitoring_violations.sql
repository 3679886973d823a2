-- Violations a sample found (discharge_evaluations, outcome 'violation'), one per
-- user, sample and parameter, collected by $as_of, with the lab, the method and who took the
-- sample (lab_results.sampled_by: the user's own, or the Town's; 40 CFR 403.12(g)(2) asks the
-- 24-hour notice and the repeat sampling only after the user's own), and the first later result
-- of the same user and parameter by $as_of (the repeat sampling; any lab; never the violating
-- sample itself).
WITH v AS (
    SELECT user_id, sample_id, parameter, min(collected_at) AS collected_at,
           min(collected_date) AS collected_date, any_value(value) AS value, any_value(unit) AS unit,
           string_agg(DISTINCT limit_type, ', ') AS limit_types, min(limit_value) AS limit_value
    FROM discharge_evaluations
    WHERE outcome = 'violation' AND collected_date <= $as_of
    GROUP BY user_id, sample_id, parameter
)
SELECT v.*, l.lab, l.method, l.sampled_by, r.sample_id AS resample_id, r.collected_date AS resampled_on
FROM v
LEFT JOIN LATERAL (
    SELECT any_value(lab) AS lab, any_value(method) AS method, any_value(sampled_by) AS sampled_by
    FROM lab_results x
    WHERE x.sample_id = v.sample_id AND x.parameter = v.parameter AND x.user_id = v.user_id
) l ON TRUE
LEFT JOIN LATERAL (
    SELECT x.sample_id, x.collected_date FROM lab_results x
    WHERE x.user_id = v.user_id AND x.parameter = v.parameter AND x.collected_at > v.collected_at
      AND x.sample_id <> v.sample_id
      AND x.collected_date <= $as_of
    ORDER BY x.collected_at, x.sample_id LIMIT 1
) r ON TRUE
ORDER BY v.user_id, v.collected_at, v.sample_id, v.parameter
