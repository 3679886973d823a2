-- The gap check's steps (_flow_gap_steps, _flow_gap_series; outfall/flow_hours.py:
-- flow_gap_steps) made anew from the hourly summaries of flow. Every step between consecutive
-- readings is one within an hour, as counted there, or one across hours: the first reading of an
-- hour less the last reading of the hour before it with a reading.
DELETE FROM _flow_gap_steps;
DELETE FROM _flow_gap_series;
DELETE FROM _flow_gap_state;
INSERT INTO _flow_gap_steps (user_id, constituent, step, n, first_end)
WITH hours AS (
    SELECT user_id, constituent, h, first_us,
           first_us - lag(last_us) OVER (PARTITION BY user_id, constituent ORDER BY h) AS across
    FROM _flow_hours
), every_step AS (
    SELECT user_id, constituent, step, steps AS n, first_end FROM _flow_hour_steps
    UNION ALL
    SELECT user_id, constituent, across, 1, first_us FROM hours WHERE across IS NOT NULL
)
SELECT user_id, constituent, step, sum(n), min(first_end)
FROM every_step
GROUP BY user_id, constituent, step;
INSERT INTO _flow_gap_series (user_id, constituent, hours, readings, first_us, last_h, last_us)
SELECT user_id, constituent, count(*), sum(readings), min(first_us), max(h), arg_max(last_us, h)
FROM _flow_hours
GROUP BY user_id, constituent;
INSERT INTO _flow_gap_state SELECT flow_rows, loaded_at FROM _flow_hours_state;
