-- Each meter series: its time span, for choosing the width of the means.
SELECT user_id, constituent, min(ts) AS first_ts, max(ts) AS last_ts, count(*) AS readings,
       any_value(unit) AS unit
FROM flow
WHERE ts IS NOT NULL AND value IS NOT NULL
GROUP BY user_id, constituent
ORDER BY user_id, constituent;
