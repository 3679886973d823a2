-- Every reading inside a slug event or within the padding of one (local time), for every series,
-- from the readings kept beside the slugs (_slug_event_readings, outfall/slug_context.py); a
-- series with more than $max_readings such readings keeps only those inside its slugs. A reading
-- beside two slugs is drawn once.
WITH near AS (
    SELECT user_id, constituent, timezone($tz, ts) AS ts, value,
           bool_or(inside) AS inside,
           min(ts) AS instant
    FROM _slug_event_readings
    GROUP BY user_id, constituent, timezone($tz, ts), value
), counted AS (
    SELECT *, count(*) OVER (PARTITION BY user_id, constituent) AS readings FROM near
)
SELECT user_id, constituent, ts, value
FROM counted
WHERE readings <= $max_readings OR inside
-- two readings of the fall-back hour share a local time: the earlier instant first, on every run
ORDER BY 1, 2, 3, instant;
