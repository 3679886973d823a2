-- The monitoring requirements to judge (assets/sewer/testing.py), each with what its start
-- may come from when effective_from is blank: the day the user's first permit in force took effect
-- (user_permits, contract 8.2) and the local day ($tz) of its first lab sample. Ordered so that the table's
-- rows come out in the same order every run.
WITH first_permits AS (
    SELECT user_id, min(effective_on) AS permit_effective
    FROM user_permits WHERE status = 'in_force'
    GROUP BY user_id
),
names AS (SELECT user_id, any_value(name) AS name FROM industrial_users GROUP BY user_id),
first_samples AS (
    SELECT user_id, min(CAST(timezone($tz, collected_at) AS DATE)) AS first_sample_day
    FROM lab_results
    GROUP BY user_id
)
SELECT r.user_id, r.parameter, r.frequency, r.sample_type, r.effective_from, r.effective_to, r.basis,
       u.name, p.permit_effective, f.first_sample_day, r.source_file, r.source_row
FROM monitoring_requirements r
LEFT JOIN names u ON u.user_id = r.user_id
LEFT JOIN first_permits p ON p.user_id = r.user_id
LEFT JOIN first_samples f ON f.user_id = r.user_id
ORDER BY r.user_id, r.parameter, r.frequency, r.sample_type NULLS FIRST, r.effective_from NULLS FIRST,
         r.source_file, r.source_row
