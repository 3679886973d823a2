-- Slug detection, pass 1 of 2 over the readings (view slug_readings: user_id,
-- constituent, ts, value in canonical units): one hash aggregate per user,
-- constituent and UTC hour (integer arithmetic on the instant). Local days are
-- assigned per hour afterwards (slug_tz_hours), never per reading: the zone's
-- offsets are whole hours, so all readings of a UTC hour share one local day.
-- Parameters: $scan_from, $scan_to (instants; whole local days).
CREATE OR REPLACE TEMP TABLE slug_hours AS
SELECT user_id, constituent, epoch_us(ts) // 3600000000 AS hour_utc,
       count(*) AS readings, fsum(value) AS sum_value, max(value) AS max_value,
       min(epoch_us(ts)) AS first_us, max(epoch_us(ts)) AS last_us
FROM slug_readings
WHERE ts >= $scan_from AND ts < $scan_to
GROUP BY ALL
