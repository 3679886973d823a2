-- Every reading inside a slug event or within $pad_hours of one (local time), for every
-- series in one pass over flow; a series with more than $max_readings such readings keeps
-- only those inside its slugs.
WITH near AS (
    SELECT f.user_id, f.constituent, timezone($tz, f.ts) AS ts, f.value,
           bool_or(f.ts BETWEEN s.start_at AND s.end_at) AS inside,
           min(f.ts) AS instant
    FROM flow f
    JOIN slug_events s
      ON f.user_id = s.user_id AND f.constituent = s.constituent
     AND f.ts BETWEEN s.start_at - to_hours(CAST($pad_hours AS BIGINT))
                  AND s.end_at + to_hours(CAST($pad_hours AS BIGINT))
    WHERE f.value IS NOT NULL
    GROUP BY f.user_id, f.constituent, timezone($tz, f.ts), f.value
), counted AS (
    SELECT *, count(*) OVER (PARTITION BY user_id, constituent) AS readings FROM near
)
SELECT user_id, constituent, ts, value
FROM counted
WHERE readings <= $max_readings OR inside
-- two readings of the fall-back hour share a local time: the earlier instant first, on every run
ORDER BY 1, 2, 3, instant;
