-- The slugs whose readings are not kept (outfall/slug_context.py): found since, or forgotten.
CREATE OR REPLACE TEMP TABLE _slug_context_todo AS
SELECT DISTINCT s.user_id, s.constituent, s.start_at, s.end_at
FROM slug_events s
WHERE s.start_at IS NOT NULL AND s.end_at IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM _slug_event_readings r
                  WHERE r.user_id = s.user_id AND r.constituent = s.constituent
                    AND r.start_at = s.start_at AND r.end_at = s.end_at);
