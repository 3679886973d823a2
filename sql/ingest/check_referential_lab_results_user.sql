-- check_referential_lab_results_user: lab results of user ids that are not in industrial_users,
-- one row per unknown user (no rows when every result belongs to a known user).
SELECT r.user_id,
       count(*) AS results,
       count(DISTINCT r.sample_id) AS samples,
       min(r.collected_date) AS first_date,
       max(r.collected_date) AS last_date,
       list(DISTINCT r.source_file ORDER BY r.source_file)[1:3] AS files
FROM lab_results AS r
WHERE NOT EXISTS (SELECT 1 FROM industrial_users AS u WHERE u.user_id = r.user_id)
GROUP BY r.user_id
ORDER BY results DESC, r.user_id;
