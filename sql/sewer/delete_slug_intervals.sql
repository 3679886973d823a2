-- Forget the usual reading intervals (computed again from every day's statistics).
DELETE FROM slug_intervals
