-- The readings beside slugs (outfall/slug_context.py) that may no longer be right: those of slugs
-- no longer in slug_events, of slugs ending on or after $stale_from (null: none), and those kept
-- with another padding than $pad_hours.
DELETE FROM _slug_event_readings r
WHERE r.end_at >= $stale_from
   OR r.pad_hours <> $pad_hours
   OR NOT EXISTS (SELECT 1 FROM slug_events s
                  WHERE s.user_id = r.user_id AND s.constituent = r.constituent
                    AND s.start_at = r.start_at AND s.end_at = r.end_at);
