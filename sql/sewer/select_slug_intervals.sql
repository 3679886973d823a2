-- The usual reading interval of each user and constituent (seconds).
SELECT user_id, constituent, interval_s FROM slug_intervals
