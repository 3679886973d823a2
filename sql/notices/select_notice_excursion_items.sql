-- Notice items of kind `excursion` (contract 6.1): each run of continuous readings beyond a limit that
-- lasted longer than the law allows (excursion_events marked a violation), in the local month ($tz) of
-- its first reading beyond the limit; known on the local day of its last (it is a violation once it has
-- lasted that long, and the letter states how long it lasted).
SELECT
    user_id AS recipient_id,
    strftime(timezone($tz, start_at), '%Y-%m-%d %H:%M') AS ref,
    rule,
    CAST(timezone($tz, start_at) AS DATE) AS month_day,
    CAST(timezone($tz, end_at) AS DATE) AS known_on,
    NULL::DATE AS resolved_on,
    parameter, limit_type, limit_value, unit, excursion_minutes,
    timezone($tz, start_at) AS local_start, timezone($tz, end_at) AS local_end,
    duration_min, readings, extreme_value
FROM excursion_events
WHERE violation
ORDER BY recipient_id, month_day, ref, parameter, limit_type
