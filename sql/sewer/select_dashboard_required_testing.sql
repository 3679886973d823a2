-- The sewer page's panel of required testing (dashboards/testing.py): every period of every monitoring
-- requirement, grouped by user and required test in the order the calendar draws them.
SELECT user_id, name, parameter, sample_type, frequency, period_start, period_end, samples, status, basis,
       rule
FROM required_testing
ORDER BY user_id,
         CASE parameter WHEN 'BOD' THEN 1 WHEN 'COD' THEN 2 WHEN 'TSS' THEN 3 WHEN 'chlorine_demand' THEN 4
                        WHEN 'FOG' THEN 5 WHEN 'pH' THEN 6 WHEN 'temperature' THEN 7 ELSE 8 END,
         parameter, sample_type NULLS FIRST,
         CASE frequency WHEN 'monthly' THEN 1 WHEN 'quarterly' THEN 2 WHEN 'semiannual' THEN 3 ELSE 4 END,
         period_start
