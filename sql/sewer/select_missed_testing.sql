-- Each missed testing period (table required_testing, status missed): a violation of the sewer
-- use law (contract 6.1: an item of the user's notice of the local month of period_end, ref period_start).
SELECT user_id, name, parameter, sample_type, frequency, period_start, period_end,
       strftime(period_end, '%Y-%m') AS period, basis, rule
FROM required_testing
WHERE status = 'missed'
ORDER BY user_id, period_end, parameter, sample_type NULLS FIRST, frequency
