-- One meter series downsampled: the mean of each $hours-hour bucket of local time.
SELECT time_bucket(to_hours(CAST($hours AS BIGINT)), timezone($tz, ts)) AS ts,
       avg(value) AS value
FROM flow
WHERE user_id = $user_id AND constituent = $constituent AND value IS NOT NULL
GROUP BY 1
ORDER BY 1;
