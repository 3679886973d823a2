-- check_freshness_flow_gaps: per user and constituent, the usual interval between readings
-- (median step), the largest gap and where it falls (the earliest, when several are as long),
-- and how many gaps exceed $max_gap_seconds.
-- A series with a single reading has no step: usual_s and largest_s are NULL.
-- Read from the gap check's steps (outfall/flow_hours.py: flow_gap_steps): per series, every step
-- between consecutive readings by length, with the reading that ends the first of each length,
-- made from the hourly summaries of flow and then only for the hours appended since. A year of
-- 1-minute readings is 100M rows, 1.7M hours, and a few hundred such lengths: the median is exact.
WITH steps AS (
    SELECT user_id, constituent, step, n FROM _flow_gap_steps
), largest AS (
    SELECT user_id, constituent, max(step) AS largest, arg_min(first_end, [-step, first_end]) AS to_t
    FROM _flow_gap_steps
    GROUP BY user_id, constituent
), per_series AS (
    SELECT user_id, constituent, readings, first_us AS first_t, last_us AS last_t FROM _flow_gap_series
), counted AS (
    -- each distinct step with how many steps come before it, and the 0-based places of the middle
    SELECT user_id, constituent, step, n,
           sum(n) OVER (PARTITION BY user_id, constituent ORDER BY step) - n AS before,
           sum(n) OVER (PARTITION BY user_id, constituent) AS total
    FROM steps
), medians AS (
    SELECT user_id, constituent,
           (min(step) FILTER (WHERE before <= floor((total - 1) / 2) AND floor((total - 1) / 2) < before + n)
            + min(step) FILTER (WHERE before <= ceil((total - 1) / 2) AND ceil((total - 1) / 2) < before + n))
           / 2 AS usual,
           sum(n) FILTER (WHERE step > CAST($max_gap_seconds AS BIGINT) * 1000000) AS over_threshold
    FROM counted
    GROUP BY user_id, constituent
)
SELECT p.user_id, p.constituent,
       p.readings,
       make_timestamptz(p.first_t) AS first_ts,
       make_timestamptz(p.last_t) AS last_ts,
       m.usual / 1e6 AS usual_s,
       l.largest / 1e6 AS largest_s,
       make_timestamptz(l.to_t - l.largest) AS gap_from,
       make_timestamptz(l.to_t) AS gap_to,
       coalesce(m.over_threshold, 0) AS gaps_over_threshold
FROM per_series AS p
LEFT JOIN largest AS l ON l.user_id IS NOT DISTINCT FROM p.user_id
    AND l.constituent IS NOT DISTINCT FROM p.constituent
LEFT JOIN medians AS m ON m.user_id IS NOT DISTINCT FROM p.user_id
    AND m.constituent IS NOT DISTINCT FROM p.constituent
ORDER BY largest_s DESC NULLS LAST, p.user_id, p.constituent;
