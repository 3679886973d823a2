-- The slugs of each month partition of a run: the local month their start falls in ('2026-03-01'),
-- for what the month's materialization reports as its row count. A month absent here has none.
-- Parameters: $tz (the town's zone), $start_from, $start_to (the first day's local midnight, the day
-- after the last's).
SELECT
    strftime(date_trunc('month', timezone($tz, start_at)), '%Y-%m-%d') AS month,
    count(*) AS slugs
FROM slug_events
WHERE start_at >= $start_from AND start_at < $start_to
GROUP BY month
