-- The samples of each required testing period (the asset's frame _testing_periods: row_id, user_id,
-- parameter, sample_type, period_start, period_end): the distinct sample_ids of the user's own lab results
-- (sampled_by user or blank: the sewer use law asks the testing of "each such person", so a Town sample
-- meets none) of that parameter, and of that sample type when one is required, collected on a local day
-- ($tz) of the period and not after the day judged ($as_of: a sample dated later has not been taken yet). A
-- name outside the parameter vocabulary is matched without regard to case, as limits are (Copper is
-- copper).
SELECT p.row_id, count(DISTINCT l.sample_id) AS samples
FROM _testing_periods p
LEFT JOIN lab_results l
       ON l.user_id = p.user_id
      AND lower(l.parameter) = lower(p.parameter)
      AND (p.sample_type IS NULL OR l.sample_type = p.sample_type)
      AND coalesce(l.sampled_by, 'user') = 'user'
      AND CAST(timezone($tz, l.collected_at) AS DATE) BETWEEN p.period_start AND least(p.period_end, $as_of)
GROUP BY p.row_id
ORDER BY p.row_id
