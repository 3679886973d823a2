-- The latest end of the slugs that start in a month partition's days.
-- Parameters: $start_from, $start_to.
SELECT max(end_at) FROM slug_events WHERE start_at >= $start_from AND start_at < $start_to
