-- Flow volume inputs per user and local calendar month (table flow, constituent
-- 'flow', gpm), readings by $as_of: the number of readings, the plain mean and
-- the trapezoid integral (gpm x seconds) between consecutive readings of the same
-- month with the seconds they cover; time-weighted mean = integral / seconds.
-- Only the (user, month) pairs asked for ($user_ids and $months: parallel lists).
-- The sums run in time order, so a rerun adds the same doubles in the same order and
-- gets the same last digit (a parallel sum's order varied between runs).
WITH wanted AS (
    SELECT unnest($user_ids) AS user_id, unnest($months) AS month
),
f AS (
    SELECT x.user_id, x.ts, x.value, x.month
    FROM (
        SELECT user_id, ts, value, CAST(date_trunc('month', CAST(ts AS DATE)) AS DATE) AS month
        FROM flow
        WHERE constituent = 'flow' AND value IS NOT NULL AND CAST(ts AS DATE) <= $as_of
    ) x
    SEMI JOIN wanted w ON x.user_id = w.user_id AND x.month = w.month
),
seg AS (
    SELECT user_id, month, ts, value,
           lead(ts) OVER w AS next_ts, lead(value) OVER w AS next_value
    FROM f
    WINDOW w AS (PARTITION BY user_id, month ORDER BY ts)
)
SELECT user_id, month, count(*) AS readings, avg(value ORDER BY ts) AS mean_gpm,
       sum((value + next_value) / 2.0 * epoch(next_ts - ts) ORDER BY ts) AS integral_gpm_s,
       sum(epoch(next_ts - ts) ORDER BY ts) AS covered_s
FROM seg
GROUP BY user_id, month
ORDER BY user_id, month
