-- Forget the daily statistics of the days about to be re-read.
-- Parameters: $from_day.
DELETE FROM slug_daily_stats WHERE local_day >= $from_day
