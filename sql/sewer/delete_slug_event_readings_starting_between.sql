-- Forget the readings beside the slugs that start in a month partition's days (read again).
-- Parameters: $start_from, $start_to.
DELETE FROM _slug_event_readings WHERE start_at >= $start_from AND start_at < $start_to
