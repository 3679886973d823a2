-- Per industrial user and local day through $as_of on which it discharged (the sewer use law;
-- contract 6.5): samples collected, and flow readings of constituent flow whose value is above 0, in
-- one scan of each table, for the two permit-term statements that read it (_activity, a temp table).
-- A probe's readings (pH, temperature, any other constituent) and flow readings of 0 are not a
-- discharge: a day with only those is not a row.
CREATE OR REPLACE TEMP TABLE _activity AS
WITH samples AS (
    SELECT user_id, coalesce(collected_date, collected_at::DATE) AS day, count(DISTINCT sample_id) AS samples
    FROM lab_results GROUP BY ALL
),
flowing AS (
    -- the hours of the hourly summaries of flow (outfall/flow_hours.py) with a flow reading above 0
    SELECT user_id, h, positive FROM _flow_hours WHERE constituent = 'flow' AND positive > 0
),
local_days AS (
    -- the local day of each UTC hour: New York's offsets are whole hours, so every reading of an hour
    -- has the same local day, and the time zone is applied once to each hour (8,760 a year) instead
    -- of to every reading or every meter's hour (a year of 190 meters: 100M readings, 1.7M hours)
    SELECT h, make_timestamptz(h * 3600000000)::DATE AS day FROM (SELECT DISTINCT h FROM flowing)
),
readings AS (
    SELECT user_id, day, sum(positive) AS flow_readings
    FROM flowing JOIN local_days USING (h)
    GROUP BY ALL
)
SELECT user_id, day, coalesce(s.samples, 0) AS samples, coalesce(r.flow_readings, 0) AS flow_readings
FROM samples s FULL OUTER JOIN readings r USING (user_id, day)
WHERE day <= CAST($as_of AS DATE);
