-- The per-user, per-day activity of create_user_activity_days, no longer needed.
DROP TABLE IF EXISTS _activity;
