-- Forget the slugs that start in a month partition's days (judged again by its run).
-- Parameters: $start_from, $start_to (instants: the first day's local midnight, the day after the last's).
DELETE FROM slug_events WHERE start_at >= $start_from AND start_at < $start_to
