-- The slug baseline and threshold of each user and constituent, as the corners of a step line:
-- a day is kept when its baseline or threshold differs from the day before it (or it has no
-- threshold), and the first and last day of each user and constituent are kept. A year of 190
-- meters is 69,000 days; the page draws the few hundred where the steps turn.
WITH days AS (
    SELECT user_id, constituent, local_day, baseline, threshold, baseline_source,
           lag(baseline) OVER w AS baseline_before, lag(threshold) OVER w AS threshold_before,
           row_number() OVER w AS nth, lead(local_day) OVER w AS day_after
    FROM slug_daily_stats
    WHERE baseline IS NOT NULL
    WINDOW w AS (PARTITION BY user_id, constituent ORDER BY local_day)
)
SELECT user_id, constituent, local_day, baseline, threshold, baseline_source
FROM days
WHERE nth = 1 OR day_after IS NULL
   OR NOT coalesce(baseline = baseline_before AND threshold = threshold_before, FALSE)
ORDER BY user_id, constituent, local_day;
