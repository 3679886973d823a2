-- Required testing whose period is open (required_testing): the sample of the period still to record.
-- A period missed is an item of the user's notice, not a line of the worklist (contract 7.5).
SELECT user_id, name, parameter, sample_type, frequency, period_start, period_end, status
FROM required_testing
WHERE status = 'open'
ORDER BY period_end, user_id, parameter
