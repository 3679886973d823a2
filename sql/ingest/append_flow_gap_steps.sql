-- The gap check's steps (outfall/flow_hours.py: flow_gap_steps) of the hours after each series'
-- last described hour (every hour of a series not described yet): their steps within the hour, as
-- counted there, and each across from the hour before with a reading (for the first, the series'
-- last described hour). Every step between consecutive readings is one of the two. $after: the
-- earliest of those last hours; only the summaries of later hours are read. With nothing described
-- (the tables emptied) and $after before every hour, this makes them all.
CREATE OR REPLACE TEMP TABLE _gap_new_hours AS
SELECT f.user_id, f.constituent, f.h, f.readings, f.first_us, f.last_us
FROM _flow_hours AS f
LEFT JOIN _flow_gap_series AS s
  ON f.user_id IS NOT DISTINCT FROM s.user_id AND f.constituent IS NOT DISTINCT FROM s.constituent
WHERE f.h > $after AND (s.last_h IS NULL OR f.h > s.last_h);
CREATE OR REPLACE TEMP TABLE _gap_new_steps AS
WITH chained AS (
    SELECT user_id, constituent, last_h AS h, CAST(NULL AS BIGINT) AS first_us, last_us, FALSE AS appended
    FROM _flow_gap_series
    UNION ALL
    SELECT user_id, constituent, h, first_us, last_us, TRUE FROM _gap_new_hours
), across AS (
    SELECT user_id, constituent, appended, first_us,
           first_us - lag(last_us) OVER (PARTITION BY user_id, constituent ORDER BY h) AS step
    FROM chained
), every_step AS (
    SELECT st.user_id, st.constituent, st.step, st.steps AS n, st.first_end
    FROM _flow_hour_steps AS st
    JOIN _gap_new_hours AS n
      ON st.user_id IS NOT DISTINCT FROM n.user_id AND st.constituent IS NOT DISTINCT FROM n.constituent
     AND st.h = n.h
    WHERE st.h > $after
    UNION ALL
    SELECT user_id, constituent, step, 1, first_us FROM across WHERE appended AND step IS NOT NULL
)
SELECT user_id, constituent, step, sum(n) AS n, min(first_end) AS first_end
FROM every_step
GROUP BY user_id, constituent, step;
CREATE OR REPLACE TEMP TABLE _gap_merged AS
SELECT user_id, constituent, step, sum(n) AS n, min(first_end) AS first_end
FROM (SELECT g.* FROM _flow_gap_steps AS g
      SEMI JOIN _gap_new_steps AS k
        ON g.user_id IS NOT DISTINCT FROM k.user_id AND g.constituent IS NOT DISTINCT FROM k.constituent
       AND g.step = k.step
      UNION ALL
      SELECT * FROM _gap_new_steps)
GROUP BY user_id, constituent, step;
DELETE FROM _flow_gap_steps AS g USING _gap_new_steps AS k
WHERE g.user_id IS NOT DISTINCT FROM k.user_id AND g.constituent IS NOT DISTINCT FROM k.constituent
  AND g.step = k.step;
INSERT INTO _flow_gap_steps SELECT user_id, constituent, step, n, first_end FROM _gap_merged;
UPDATE _flow_gap_series AS s
SET hours = s.hours + a.hours, readings = s.readings + a.readings, last_h = a.last_h, last_us = a.last_us
FROM (SELECT user_id, constituent, count(*) AS hours, sum(readings) AS readings, max(h) AS last_h,
             arg_max(last_us, h) AS last_us
      FROM _gap_new_hours
      GROUP BY user_id, constituent) AS a
WHERE s.user_id IS NOT DISTINCT FROM a.user_id AND s.constituent IS NOT DISTINCT FROM a.constituent;
INSERT INTO _flow_gap_series (user_id, constituent, hours, readings, first_us, last_h, last_us)
SELECT n.user_id, n.constituent, count(*), sum(n.readings), min(n.first_us), max(n.h), arg_max(n.last_us, n.h)
FROM _gap_new_hours AS n
WHERE NOT EXISTS (SELECT 1 FROM _flow_gap_series AS s
                  WHERE s.user_id IS NOT DISTINCT FROM n.user_id
                      AND s.constituent IS NOT DISTINCT FROM n.constituent)
GROUP BY n.user_id, n.constituent;
DELETE FROM _flow_gap_state;
INSERT INTO _flow_gap_state SELECT flow_rows, loaded_at FROM _flow_hours_state;
DROP TABLE _gap_new_hours;
DROP TABLE _gap_new_steps;
DROP TABLE _gap_merged;
