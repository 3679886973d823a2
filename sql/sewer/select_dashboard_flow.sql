-- Every meter series as the sewer page draws it, in one read: the means of each bucket of local
-- time, then every reading near a slug. $user_ids, $constituents, $hours: parallel lists, one
-- entry per series (its bucket's width in hours); each row names its series by its position in
-- them (0, 1, ...). Ordered by series, means before readings; the means by local time, the
-- readings by instant (below).
--
-- The means come from the hourly summaries of flow (outfall/flow_hours.py: per UTC hour, the sum
-- and number of the values), so a page reads 1.7M hours instead of 100M readings. New York's
-- offsets are whole hours and every bucket is whole hours, so an hour's readings share its
-- bucket, and the time zone is applied once to each hour (8,760 a year, not once per meter).
--
-- The readings near slugs are those kept beside the slugs (_slug_event_readings,
-- outfall/slug_context.py), when $with_readings; a series with more than $max_readings such
-- readings keeps only those inside its slugs. A reading beside two slugs is drawn once.
--
-- The readings come in the order of their instants: their local times' order, except in the
-- fall-back hour, where two readings share a local time; the page's stable sort by local time
-- (dashboards/sewer.py: _by_time) then keeps the earlier instant first, on every run. One sort
-- key of whole numbers (the means' local times, the readings' instants, in microseconds) sorts a
-- year's 575,000 rows in two thirds of the time the local time and instant took as two keys.
WITH chosen AS (
    SELECT unnest($user_ids) AS user_id, unnest($constituents) AS constituent, unnest($hours) AS hours,
           unnest(range(len($user_ids))) AS series
), hourly AS (
    SELECT c.series, c.hours, f.h, f.value_sum, f.valued
    FROM _flow_hours f
    JOIN chosen c ON f.user_id = c.user_id AND f.constituent = c.constituent
    WHERE f.valued > 0
), local_hours AS (
    SELECT h, timezone($tz, make_timestamptz(h * 3600000000)) AS local_ts FROM (SELECT DISTINCT h FROM hourly)
), means AS (
    SELECT series, time_bucket(to_hours(CAST(hours AS BIGINT)), l.local_ts) AS ts,
           sum(value_sum) / sum(valued) AS value
    FROM hourly
    JOIN local_hours l USING (h)
    GROUP BY series, hours, 2
), near AS (
    SELECT user_id, constituent, timezone($tz, ts) AS ts, value,
           bool_or(inside) AS inside,
           min(ts) AS instant
    FROM _slug_event_readings
    WHERE $with_readings
    GROUP BY user_id, constituent, timezone($tz, ts), value
), counted AS (
    SELECT *, count(*) OVER (PARTITION BY user_id, constituent) AS readings FROM near
), drawn AS (
    SELECT series, 0 AS kind, ts, value, epoch_us(ts) AS at_us FROM means
    UNION ALL
    SELECT c.series, 1 AS kind, n.ts, n.value, epoch_us(n.instant) AS at_us
    FROM counted n
    JOIN chosen c ON n.user_id = c.user_id AND n.constituent = c.constituent
    WHERE n.readings <= $max_readings OR n.inside
)
SELECT series, kind, ts, value
FROM drawn
ORDER BY series, kind, at_us;
