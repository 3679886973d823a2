-- The usual reading interval of each user and constituent: the median of its
-- days' spacings (rules reading slug_usual_interval).
INSERT INTO slug_intervals BY NAME
SELECT user_id, constituent, median(spacing_s) AS interval_s, count(spacing_s)::INTEGER AS days
FROM slug_daily_stats
GROUP BY user_id, constituent
