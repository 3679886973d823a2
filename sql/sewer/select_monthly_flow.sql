-- Flow volume inputs per user and local calendar month (table flow, constituent
-- 'flow', gpm), readings by $as_of: the number of readings, the plain mean and
-- the trapezoid integral (gpm x seconds) between consecutive readings of the same
-- month with the seconds they cover; time-weighted mean = integral / seconds.
WITH f AS (
    SELECT user_id, ts, value, CAST(date_trunc('month', CAST(ts AS DATE)) AS DATE) AS month
    FROM flow
    WHERE constituent = 'flow' AND value IS NOT NULL AND CAST(ts AS DATE) <= $as_of
),
seg AS (
    SELECT user_id, month, ts, value,
           lead(ts) OVER w AS next_ts, lead(value) OVER w AS next_value
    FROM f
    WINDOW w AS (PARTITION BY user_id, month ORDER BY ts)
)
SELECT user_id, month, count(*) AS readings, avg(value) AS mean_gpm,
       sum((value + next_value) / 2.0 * epoch(next_ts - ts)) AS integral_gpm_s,
       sum(epoch(next_ts - ts)) AS covered_s
FROM seg
GROUP BY user_id, month
ORDER BY user_id, month
