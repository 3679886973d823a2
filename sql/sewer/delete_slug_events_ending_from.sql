-- Forget the slugs an incremental detection judges again (those ending on or after $emit_from).
-- Parameters: $emit_from.
DELETE FROM slug_events WHERE end_at >= $emit_from
