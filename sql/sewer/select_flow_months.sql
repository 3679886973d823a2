-- The users and local calendar months with flow readings (constituent 'flow') by $as_of: the months a
-- surcharge per volume of discharge may be charged for.
SELECT DISTINCT user_id, CAST(date_trunc('month', CAST(ts AS DATE)) AS DATE) AS month
FROM flow
WHERE constituent = 'flow' AND value IS NOT NULL AND CAST(ts AS DATE) <= $as_of
ORDER BY user_id, month
