-- Per industrial user and local day through $as_of: samples collected and flow readings, in one
-- scan of each table, for the two permit-term statements that read it (_activity, a temp table).
CREATE OR REPLACE TEMP TABLE _activity AS
WITH samples AS (
    SELECT user_id, coalesce(collected_date, collected_at::DATE) AS day, count(DISTINCT sample_id) AS samples
    FROM lab_results GROUP BY ALL
),
readings AS (
    SELECT user_id, ts::DATE AS day, count(*) AS flow_readings
    FROM flow GROUP BY ALL
)
SELECT user_id, day, coalesce(s.samples, 0) AS samples, coalesce(r.flow_readings, 0) AS flow_readings
FROM samples s FULL OUTER JOIN readings r USING (user_id, day)
WHERE day <= CAST($as_of AS DATE);
