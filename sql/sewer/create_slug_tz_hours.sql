-- The local day of every UTC hour that has readings: one time-zone conversion
-- per hour (8,760 a year) instead of one per reading.
-- Parameters: $tz.
CREATE OR REPLACE TEMP TABLE slug_tz_hours AS
SELECT hour_utc, (make_timestamptz(hour_utc * 3600000000) AT TIME ZONE $tz)::DATE AS local_day
FROM (SELECT DISTINCT hour_utc FROM slug_hours)
