-- The summaries of the hours from $lo to $hi (UTC hour numbers, $hi excluded){only_touched_note}:
-- each reading of those hours with its step from the reading before it in its hour, the steps
-- counted per hour and length, then each hour's figures. The window sorts a small series number
-- and microseconds, not the series' names, so a month of 190 meters' 1-minute readings stays
-- within the memory limit. Distinct times are the readings less the steps of length 0; the
-- reading that ends the earliest largest step of an hour is the first end of that length.
CREATE OR REPLACE TEMP TABLE _hour_series AS
SELECT user_id, constituent, row_number() OVER (ORDER BY user_id, constituent) AS sid
FROM (SELECT DISTINCT f.user_id, f.constituent
      FROM flow AS f
      WHERE f.ts >= make_timestamptz($lo * 3600000000) AND f.ts < make_timestamptz($hi * 3600000000){only_touched});
CREATE OR REPLACE TEMP TABLE _hour_steps AS
WITH readings AS (
    SELECT s.sid, epoch_us(f.ts) AS t
    FROM flow AS f
    JOIN _hour_series AS s ON s.user_id IS NOT DISTINCT FROM f.user_id AND s.constituent IS NOT DISTINCT FROM f.constituent
    WHERE f.ts >= make_timestamptz($lo * 3600000000) AND f.ts < make_timestamptz($hi * 3600000000){only_touched}
)
SELECT sid, t // 3600000000 AS h, t,
       t - lag(t) OVER (PARTITION BY sid, t // 3600000000 ORDER BY t) AS step
FROM readings;
CREATE OR REPLACE TEMP TABLE _hour_lengths AS
SELECT sid, h, step, count(*) AS steps, min(t) AS first_end
FROM _hour_steps
WHERE step IS NOT NULL
GROUP BY sid, h, step;
INSERT INTO _flow_hours
SELECT s.user_id, s.constituent, x.h, x.readings, x.readings - coalesce(z.zero_steps, 0), x.first_us, x.last_us,
       z.step_max, z.step_max_to
FROM (SELECT sid, h, count(*) AS readings, min(t) AS first_us, max(t) AS last_us
      FROM _hour_steps GROUP BY sid, h) AS x
LEFT JOIN (SELECT sid, h, max(step) AS step_max, arg_max(first_end, step) AS step_max_to,
                  sum(steps) FILTER (WHERE step = 0) AS zero_steps
           FROM _hour_lengths GROUP BY sid, h) AS z USING (sid, h)
JOIN _hour_series AS s USING (sid);
INSERT INTO _flow_hour_steps
SELECT s.user_id, s.constituent, l.h, l.step, l.steps
FROM _hour_lengths AS l
JOIN _hour_series AS s USING (sid);
DROP TABLE _hour_lengths;
DROP TABLE _hour_steps;
DROP TABLE _hour_series;
