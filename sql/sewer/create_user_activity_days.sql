-- Per industrial user and local day through $as_of: samples collected and flow readings, in one
-- scan of each table, for the two permit-term statements that read it (_activity, a temp table).
CREATE OR REPLACE TEMP TABLE _activity AS
WITH samples AS (
    SELECT user_id, coalesce(collected_date, collected_at::DATE) AS day, count(DISTINCT sample_id) AS samples
    FROM lab_results GROUP BY ALL
),
readings AS (
    -- counted per UTC hour (the hourly summaries of flow, outfall/flow_hours.py), then each hour's
    -- local day: New York's offsets are whole hours, so every reading of an hour has the same local
    -- day, and the time zone is applied to a row an hour instead of to every reading (a year of
    -- 190 meters: 1.7M hours, not 100M readings)
    SELECT user_id, make_timestamptz(h * 3600000000)::DATE AS day, sum(readings) AS flow_readings
    FROM _flow_hours
    GROUP BY ALL
)
SELECT user_id, day, coalesce(s.samples, 0) AS samples, coalesce(r.flow_readings, 0) AS flow_readings
FROM samples s FULL OUTER JOIN readings r USING (user_id, day)
WHERE day <= CAST($as_of AS DATE);
