-- Daily maximums and monthly averages left unjudged by insert_statistic_results
-- (a non-detect on a day no non-detect averaging policy covers).
-- Parameters: $asset.
INSERT INTO not_judged (asset, subject, day, section, reason)
SELECT $asset, user_id || ' ' || parameter || ' ' || replace(statistic, '_', ' ') || ' of ' || period_start
           || CASE WHEN period_end > period_start THEN ' to ' || period_end ELSE '' END,
       period_start, 'nondetect_averaging',
       'not judged: a non-detect of the period falls on a day no non-detect averaging policy of the '
       || 'rules covers'
FROM statistic_results
WHERE passes IS NULL   -- only a period left unjudged for want of a policy has no verdict
ORDER BY user_id, parameter, statistic, period_start
