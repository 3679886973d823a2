-- Required testing whose period is open or was missed (required_testing).
SELECT user_id, name, parameter, sample_type, frequency, period_start, period_end, status
FROM required_testing
WHERE status IN ('open', 'missed')
ORDER BY period_end, user_id, parameter
