-- The samples the town took (lab_results.sampled_by 'town'), one row per sample and parameter tested, for
-- the fees of its sampling and testing.
SELECT user_id, sample_id, min(collected_date) AS collected_date, parameter
FROM lab_results
WHERE sampled_by = 'town'
GROUP BY user_id, sample_id, parameter
ORDER BY user_id, sample_id, parameter
