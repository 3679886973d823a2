-- check_freshness_flow_gaps: per user and constituent, the usual interval between readings
-- (median step), the largest gap and where it falls, and how many gaps exceed $max_gap_seconds.
-- A series with a single reading has no step: usual_s and largest_s are NULL.
WITH steps AS (
    SELECT user_id, constituent, ts,
           lag(ts) OVER (PARTITION BY user_id, constituent ORDER BY ts) AS prev_ts
    FROM flow
    WHERE ts IS NOT NULL
), gaps AS (
    SELECT user_id, constituent, ts, prev_ts, epoch(ts) - epoch(prev_ts) AS gap_s
    FROM steps
)
SELECT user_id, constituent,
       count(*) AS readings,
       min(ts) AS first_ts,
       max(ts) AS last_ts,
       median(gap_s) AS usual_s,
       max(gap_s) AS largest_s,
       arg_max(prev_ts, gap_s) AS gap_from,
       arg_max(ts, gap_s) AS gap_to,
       count(*) FILTER (WHERE gap_s > $max_gap_seconds) AS gaps_over_threshold
FROM gaps
GROUP BY user_id, constituent
ORDER BY largest_s DESC NULLS LAST, user_id, constituent;
