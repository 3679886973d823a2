-- The sewer page's panel of required testing (dashboards/testing.py): every period of every monitoring
-- requirement, grouped by user and required test in the order the calendar draws them.
-- Parameters: $parameter_order (outfall.vocab.PARAMETER_ORDER: the catalog's parameters in the order
-- pages list them; any other parameter after them, by name).
SELECT user_id, name, parameter, sample_type, frequency, period_start, period_end, samples, status, basis,
       rule
FROM required_testing
ORDER BY user_id,
         coalesce(list_position($parameter_order, parameter), len($parameter_order) + 1),
         parameter, sample_type NULLS FIRST,
         CASE frequency WHEN 'monthly' THEN 1 WHEN 'quarterly' THEN 2 WHEN 'semiannual' THEN 3 ELSE 4 END,
         period_start
