-- Notice items of kind `missed_testing` (contract 6.1 and 6.3): each period of required testing with no
-- sample, in the month of its period_end; known the day after that period ended.
SELECT user_id AS recipient_id, strftime(period_start, '%Y-%m-%d') AS ref, rule, period_end AS month_day,
       period_end + 1 AS known_on, NULL::DATE AS resolved_on,
       parameter, sample_type, period_start, period_end, frequency, basis
FROM required_testing
WHERE status = 'missed'
ORDER BY recipient_id, period_start, parameter, sample_type
