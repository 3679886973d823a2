-- The per-user, per-day activity of create_user_activity_days and the days no permit covers
-- (create_uncovered_days), no longer needed.
DROP TABLE IF EXISTS _uncovered;
DROP TABLE IF EXISTS _activity;
