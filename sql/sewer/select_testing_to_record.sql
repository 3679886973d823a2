-- The testing periods still open (table required_testing, status open: no sample yet, the period not
-- over on the day judged), each waiting for its lab result (exports/to_record.xlsx, sheet lab_results):
-- the user, parameter and sample type, and for reading only the user's name and the period.
SELECT user_id, parameter, sample_type, name, frequency, period_start, period_end
FROM required_testing
WHERE status = 'open'
ORDER BY period_end, user_id, parameter, sample_type NULLS FIRST, frequency
