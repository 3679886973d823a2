-- Forget the daily statistics of the days about to be re-read.
-- Parameters: $from_day, $to_day (the last day; a month partition's).
DELETE FROM slug_daily_stats WHERE local_day >= $from_day AND local_day <= $to_day
