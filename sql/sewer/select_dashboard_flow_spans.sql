-- Each meter series: its time span, for choosing the width of the means. Read from the hourly
-- summaries of flow (outfall/flow_hours.py), 1.7M hours for a year of 190 meters' 1-minute
-- readings instead of 100M readings: the hours with a value.
SELECT user_id, constituent, make_timestamptz(min(first_us)) AS first_ts,
       make_timestamptz(max(last_us)) AS last_ts,
       sum(valued) AS readings, any_value(unit) AS unit
FROM _flow_hours
WHERE valued > 0
GROUP BY user_id, constituent
ORDER BY user_id, constituent;
