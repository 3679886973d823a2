-- The slug baseline and threshold of each user, constituent and local day.
SELECT user_id, constituent, local_day, baseline, threshold, baseline_source
FROM slug_daily_stats
WHERE baseline IS NOT NULL
ORDER BY user_id, constituent, local_day;
