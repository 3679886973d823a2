-- check_referential_flow_user: flow readings of user ids that are not in industrial_users,
-- one row per unknown user (no rows when every reading belongs to a known user).
SELECT f.user_id,
       count(*) AS readings,
       min(f.ts) AS first_ts,
       max(f.ts) AS last_ts,
       list(DISTINCT f.source_file ORDER BY f.source_file)[1:3] AS files
FROM flow AS f
WHERE NOT EXISTS (SELECT 1 FROM industrial_users AS u WHERE u.user_id = f.user_id)
GROUP BY f.user_id
ORDER BY readings DESC, f.user_id;
