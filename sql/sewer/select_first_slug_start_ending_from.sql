-- The start of the earliest slug still running at $emit_from (an incremental
-- detection re-reads from its day).
-- Parameters: $emit_from.
SELECT min(start_at) FROM slug_events WHERE end_at >= $emit_from
