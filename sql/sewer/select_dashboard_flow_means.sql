-- Every meter series downsampled: the mean of each bucket of local time, the bucket's width
-- (hours) chosen per series ($user_ids, $constituents, $hours: parallel lists, one entry per
-- series).
-- Read from the hourly summaries of flow (outfall/flow_hours.py: per UTC hour, the sum and number
-- of the values), so a page reads 1.7M hours instead of 100M readings. New York's offsets are
-- whole hours and every bucket is whole hours, so an hour's readings share its bucket, and the
-- time zone is applied to a row an hour.
WITH chosen AS (
    SELECT unnest($user_ids) AS user_id, unnest($constituents) AS constituent, unnest($hours) AS hours
), hourly AS (
    SELECT f.user_id, f.constituent, c.hours, f.h, f.value_sum AS total, f.valued AS readings
    FROM _flow_hours f
    JOIN chosen c ON f.user_id = c.user_id AND f.constituent = c.constituent
    WHERE f.valued > 0
)
SELECT user_id, constituent,
       time_bucket(to_hours(CAST(hours AS BIGINT)), timezone($tz, make_timestamptz(h * 3600000000))) AS ts,
       sum(total) / sum(readings) AS value
FROM hourly
GROUP BY user_id, constituent, hours, 3
ORDER BY 1, 2, 3;
