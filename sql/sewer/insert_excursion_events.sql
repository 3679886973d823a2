-- Runs of consecutive continuous readings (table flow) beyond a limit the law breaks only by an
-- excursion lasting longer than excursion_minutes (discharge_limit_defaults), each reading against the
-- limit in effect on its local day. A run ends at a reading within the limit, or at a gap between two
-- readings longer than excursion_minutes (the readings cannot show the excursion went on through it).
-- Its duration runs from its first reading beyond the limit to its last; it is a violation when that
-- is longer than excursion_minutes.
INSERT INTO excursion_events BY NAME
WITH limits AS (
    SELECT lower(parameter) AS pkey, parameter, limit_type, value AS limit_value, unit, excursion_minutes,
           coalesce(effective_from, DATE '0001-01-01') AS effective_from,
           coalesce(effective_to, DATE '9999-12-31') AS effective_to, rule
    FROM discharge_limit_defaults
    WHERE excursion_minutes IS NOT NULL AND limit_type IN ('max', 'min')
),
-- ST03 off: sqlfluff does not see the CTE read by marked, whose query ends in a WINDOW clause.
probe_readings AS (  -- noqa: ST03
    SELECT f.user_id, f.ts, f.value, l.parameter, l.limit_type, l.limit_value, l.unit, l.excursion_minutes,
           l.rule,
           CASE WHEN l.limit_type = 'max' THEN f.value > l.limit_value ELSE f.value < l.limit_value END
               AS beyond
    FROM flow AS f
    INNER JOIN limits AS l
        ON lower(f.constituent) = l.pkey AND CAST(f.ts AS DATE) BETWEEN l.effective_from AND l.effective_to
    WHERE f.value IS NOT NULL
),
marked AS (
    SELECT *,
           CASE WHEN NOT beyond THEN 1
                WHEN lag(beyond) OVER w IS DISTINCT FROM TRUE THEN 1
                WHEN epoch(ts - lag(ts) OVER w) / 60.0 > excursion_minutes THEN 1
                ELSE 0 END AS starts
    FROM probe_readings
    WINDOW w AS (PARTITION BY user_id, parameter, limit_type ORDER BY ts)
),
runs AS (
    SELECT *, sum(starts) OVER (PARTITION BY user_id, parameter, limit_type ORDER BY ts) AS run_id
    FROM marked
)
SELECT user_id, parameter, limit_type, any_value(limit_value) AS limit_value, any_value(unit) AS unit,
       any_value(excursion_minutes) AS excursion_minutes, min(ts) AS start_at, max(ts) AS end_at,
       epoch(max(ts) - min(ts)) / 60.0 AS duration_min, count(*)::INTEGER AS readings,
       CASE WHEN limit_type = 'max' THEN max(value) ELSE min(value) END AS extreme_value,
       epoch(max(ts) - min(ts)) / 60.0 > any_value(excursion_minutes) AS violation,
       any_value(rule) || '; the excursion lasted from its first reading beyond the limit to its last'
           AS rule
FROM runs
WHERE beyond
GROUP BY user_id, parameter, limit_type, run_id
ORDER BY user_id, parameter, start_at
