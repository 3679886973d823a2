-- Every lab result, for the control charts (canonical units; a non-detect's
-- result is its detection value).
SELECT user_id, sample_id, parameter, collected_at, result AS value, nondetect, qualifier, unit, sample_type
FROM lab_results
WHERE result IS NOT NULL AND collected_at IS NOT NULL
ORDER BY user_id, parameter, collected_at, sample_id;
