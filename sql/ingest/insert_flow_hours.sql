-- Hourly summaries of some readings of flow AS f, written into two tables. outfall/flow_hours.py
-- fills in which (the readings condition and the two table names: its own identifiers and
-- conditions, never input values): the hours from $lo to $hi (UTC hour numbers, $hi excluded), all
-- of them or only the touched ones (sql/ingest/flow_hours_touched_filter.sql), into _flow_hours and
-- _flow_hour_steps; or the rows one file just added ($source_file, $now), into the staged copies
-- _new_flow_hours and _new_flow_hour_steps, kept once the file's load is sure to stay.
-- Per series and hour: the readings counted with their first and last, unit, the sum of their values and
-- how many are above 0; and each reading's step from the reading before it in its hour, counted per hour
-- and per step length. The window sorts a small series number and microseconds, not the series' names, so
-- a month of 190 meters' 1-minute readings stays within the memory limit; it sorts each series, and a step
-- is within an hour when the reading before is in the same hour (a window per series and hour costs more).
-- The steps are counted as the window yields them, not written to a scratch table of every reading first
-- (a second copy of the readings).
CREATE OR REPLACE TEMP TABLE _hour_series AS
SELECT user_id, constituent, row_number() OVER (ORDER BY user_id, constituent) AS sid
FROM (SELECT DISTINCT f.user_id, f.constituent FROM flow AS f WHERE {readings});
INSERT INTO {hours}
SELECT s.user_id, s.constituent, x.h, x.readings, x.first_us, x.last_us, x.unit, x.value_sum, x.valued,
       x.positive
FROM (SELECT s.sid, epoch_us(f.ts) // 3600000000 AS h, count(*) AS readings, epoch_us(min(f.ts)) AS first_us,
             epoch_us(max(f.ts)) AS last_us, any_value(f.unit) AS unit, sum(f.value) AS value_sum,
             count(f.value) AS valued, count(*) FILTER (WHERE f.value > 0) AS positive
      FROM flow AS f
      JOIN _hour_series AS s ON s.user_id IS NOT DISTINCT FROM f.user_id
          AND s.constituent IS NOT DISTINCT FROM f.constituent
      WHERE {readings}
      GROUP BY s.sid, h) AS x
JOIN _hour_series AS s USING (sid);
INSERT INTO {steps}
SELECT s.user_id, s.constituent, x.h, x.step, x.steps, x.first_end
FROM (SELECT sid, h, step, count(*) AS steps, min(t) AS first_end
      FROM (SELECT sid, h, t, CASE WHEN before // 3600000000 = h THEN t - before END AS step
            FROM (SELECT sid, t // 3600000000 AS h, t, lag(t) OVER (PARTITION BY sid ORDER BY t) AS before
                  FROM (SELECT s.sid, epoch_us(f.ts) AS t
                        FROM flow AS f
                        JOIN _hour_series AS s ON s.user_id IS NOT DISTINCT FROM f.user_id
                         AND s.constituent IS NOT DISTINCT FROM f.constituent
                        WHERE {readings})))
      WHERE step IS NOT NULL GROUP BY sid, h, step) AS x
JOIN _hour_series AS s USING (sid);
DROP TABLE _hour_series;
