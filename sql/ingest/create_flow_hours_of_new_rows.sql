-- The hourly summaries of the readings one file just added to flow (outfall/flow_hours.py,
-- NewRows), made while the rows are checked, as insert_flow_hours.sql makes them for a range of
-- hours: {new} is the condition that picks the file's new rows of flow AS f (its name and this
-- load's time, bound as $source_file and $now). Staged in _new_flow_hours and _new_flow_hour_steps
-- until the file's load is sure to stay.
CREATE OR REPLACE TEMP TABLE _hour_series AS
SELECT user_id, constituent, row_number() OVER (ORDER BY user_id, constituent) AS sid
FROM (SELECT DISTINCT f.user_id, f.constituent FROM flow AS f WHERE {new});
CREATE OR REPLACE TEMP TABLE _new_flow_hours AS
SELECT s.user_id, s.constituent, x.h, x.readings, x.first_us, x.last_us, x.unit, x.value_sum, x.valued
FROM (SELECT s.sid, epoch_us(f.ts) // 3600000000 AS h, count(*) AS readings, epoch_us(min(f.ts)) AS first_us,
             epoch_us(max(f.ts)) AS last_us, any_value(f.unit) AS unit, sum(f.value) AS value_sum,
             count(f.value) AS valued
      FROM flow AS f
      JOIN _hour_series AS s ON s.user_id IS NOT DISTINCT FROM f.user_id AND s.constituent IS NOT DISTINCT FROM f.constituent
      WHERE {new} AND f.ts IS NOT NULL
      GROUP BY s.sid, h) AS x
JOIN _hour_series AS s USING (sid);
CREATE OR REPLACE TEMP TABLE _new_flow_hour_steps AS
SELECT s.user_id, s.constituent, x.h, x.step, x.steps, x.first_end
FROM (SELECT sid, h, step, count(*) AS steps, min(t) AS first_end
      FROM (SELECT sid, h, t, CASE WHEN before // 3600000000 = h THEN t - before END AS step
            FROM (SELECT s.sid, epoch_us(f.ts) // 3600000000 AS h, epoch_us(f.ts) AS t,
                         lag(epoch_us(f.ts)) OVER (PARTITION BY s.sid ORDER BY f.ts) AS before
                  FROM flow AS f
                  JOIN _hour_series AS s ON s.user_id IS NOT DISTINCT FROM f.user_id AND s.constituent IS NOT DISTINCT FROM f.constituent
                  WHERE {new} AND f.ts IS NOT NULL))
      WHERE step IS NOT NULL
      GROUP BY sid, h, step) AS x
JOIN _hour_series AS s USING (sid);
DROP TABLE _hour_series;
