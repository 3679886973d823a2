-- Slug detection, pass 2 of 2 over the readings: only the readings of the
-- hours in slug_scan_hours (a hash semi-join on user and hour against a small
-- table; other constituents of the same user-hour may come along, harmlessly),
-- then each with its local day and that day's threshold. Every high reading is
-- here, and every reading that lies between two high readings close enough to
-- share a run, so a non-high reading between them splits the run as it must.
-- Parameters: $scan_from, $scan_to.
CREATE OR REPLACE TEMP TABLE slug_candidates AS
WITH wanted AS (
    SELECT DISTINCT user_id, hour_utc FROM slug_scan_hours
),
r AS MATERIALIZED (
    SELECT user_id, constituent, ts, value
    FROM slug_readings
    SEMI JOIN wanted w
      ON slug_readings.user_id = w.user_id AND epoch_us(slug_readings.ts) // 3600000000 = w.hour_utc
    WHERE ts >= $scan_from AND ts < $scan_to
),
r_days AS MATERIALIZED (
    SELECT r.*, z.local_day
    FROM r JOIN slug_tz_hours z ON z.hour_utc = epoch_us(r.ts) // 3600000000
)
SELECT r.*, s.threshold
FROM r_days r
LEFT JOIN slug_daily_stats s
  ON s.user_id = r.user_id AND s.constituent = r.constituent AND s.local_day = r.local_day
