-- check_freshness_flow_gaps: per user and constituent, the usual interval between readings
-- (median step), the largest gap and where it falls (the earliest, when several are as long), and how many gaps exceed $max_gap_seconds.
-- A series with a single reading has no step: usual_s and largest_s are NULL.
-- A year of 1-minute readings is 100M rows: the window sorts only a small series number and the
-- time in microseconds (the series' names sorted along with every reading did not fit in the
-- 1 GB memory limit), and the median step comes exactly from each series' histogram of steps
-- (median() would hold every step of a series in memory).
WITH series AS (
    SELECT user_id, constituent, row_number() OVER (ORDER BY user_id, constituent) AS sid
    FROM (SELECT DISTINCT user_id, constituent FROM flow WHERE ts IS NOT NULL)
), steps AS (
    SELECT sid, t, t - lag(t) OVER (PARTITION BY sid ORDER BY t) AS step
    FROM (SELECT s.sid, epoch_us(f.ts) AS t
          FROM flow AS f
          JOIN series AS s ON s.user_id IS NOT DISTINCT FROM f.user_id
                          AND s.constituent IS NOT DISTINCT FROM f.constituent
          WHERE f.ts IS NOT NULL)
), per_series AS (
    SELECT sid,
           count(*) AS readings,
           min(t) AS first_t,
           max(t) AS last_t,
           max(step) AS largest,
           -- the earliest of the largest gaps
           arg_max(t, [step, -t]) FILTER (WHERE step IS NOT NULL) AS to_t,
           count(*) FILTER (WHERE step > CAST($max_gap_seconds AS BIGINT) * 1000000) AS over_threshold,
           histogram(step) FILTER (WHERE step IS NOT NULL) AS steps
    FROM steps
    GROUP BY sid
), counted AS (
    -- each distinct step with how many steps come before it, and the 0-based places of the middle
    SELECT sid, e.key AS step, e.value AS n,
           sum(e.value) OVER (PARTITION BY sid ORDER BY e.key) - e.value AS before,
           sum(e.value) OVER (PARTITION BY sid) AS total
    FROM (SELECT sid, unnest(map_entries(steps)) AS e FROM per_series)
), medians AS (
    SELECT sid,
           (min(step) FILTER (WHERE before <= floor((total - 1) / 2) AND floor((total - 1) / 2) < before + n)
            + min(step) FILTER (WHERE before <= ceil((total - 1) / 2) AND ceil((total - 1) / 2) < before + n))
           / 2 AS usual
    FROM counted
    GROUP BY sid
)
SELECT s.user_id, s.constituent,
       p.readings,
       make_timestamptz(p.first_t) AS first_ts,
       make_timestamptz(p.last_t) AS last_ts,
       m.usual / 1e6 AS usual_s,
       p.largest / 1e6 AS largest_s,
       make_timestamptz(p.to_t - p.largest) AS gap_from,
       make_timestamptz(p.to_t) AS gap_to,
       p.over_threshold AS gaps_over_threshold
FROM per_series AS p
JOIN series AS s USING (sid)
LEFT JOIN medians AS m USING (sid)
ORDER BY largest_s DESC NULLS LAST, s.user_id, s.constituent;
