-- The hours worth reading again: those whose highest reading is above their
-- day's threshold, plus the ceil(gap_factor x usual interval / 1 h) hours
-- before each (gap_factor of the slug rule in effect on the hour's day), whose
-- readings decide whether a high reading continues a run.
-- A per-user threshold filter (the lowest threshold of any of its days) comes
-- before the per-day join, so that only a few hours are joined to their day.
CREATE OR REPLACE TEMP TABLE slug_scan_hours AS
WITH user_floor AS (
    SELECT user_id, constituent, min(threshold) AS min_threshold
    FROM slug_daily_stats WHERE threshold IS NOT NULL
    GROUP BY user_id, constituent
),
above_floor AS MATERIALIZED (
    SELECT h.user_id, h.constituent, h.hour_utc, h.max_value, z.local_day
    FROM slug_hours h
    JOIN user_floor f USING (user_id, constituent)
    JOIN slug_tz_hours z USING (hour_utc)
    WHERE h.max_value > f.min_threshold
),
hot AS (
    SELECT h.user_id, h.constituent, h.hour_utc, i.interval_s, r.gap_factor
    FROM above_floor h
    JOIN slug_daily_stats s
      ON s.user_id = h.user_id AND s.constituent = h.constituent AND s.local_day = h.local_day
    JOIN slug_intervals i ON i.user_id = h.user_id AND i.constituent = h.constituent
    JOIN slug_rules r ON h.local_day BETWEEN r.effective_from AND r.effective_to
    WHERE s.threshold IS NOT NULL AND i.interval_s IS NOT NULL AND h.max_value > s.threshold
)
SELECT DISTINCT user_id, constituent, hour_utc - k AS hour_utc
FROM (
    SELECT user_id, constituent, hour_utc,
           unnest(range(0, CAST(ceil(gap_factor * interval_s / 3600.0) AS BIGINT) + 1)) AS k
    FROM hot
)
