-- Every meter series downsampled in one scan of flow: the mean of each bucket of local
-- time, the bucket's width (hours) chosen per series ($user_ids, $constituents, $hours:
-- parallel lists, one entry per series).
WITH chosen AS (
    SELECT unnest($user_ids) AS user_id, unnest($constituents) AS constituent, unnest($hours) AS hours
)
SELECT f.user_id, f.constituent,
       time_bucket(to_hours(CAST(c.hours AS BIGINT)), timezone($tz, f.ts)) AS ts,
       avg(f.value) AS value
FROM flow f
JOIN chosen c ON f.user_id = c.user_id AND f.constituent = c.constituent
WHERE f.value IS NOT NULL
GROUP BY ALL
ORDER BY 1, 2, 3;
