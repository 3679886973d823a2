-- Notice items of kind `sample` (contract 6.1): each row of discharge_violations, in the local month ($tz)
-- of its collection; known on the day it was collected.
SELECT user_id AS recipient_id, sample_id AS ref, rule,
       CAST(timezone($tz, collected_at) AS DATE) AS month_day,
       CAST(timezone($tz, collected_at) AS DATE) AS known_on,
       NULL::DATE AS resolved_on,
       parameter, value, unit, limit_value, limit_type, sample_type
FROM discharge_violations
ORDER BY recipient_id, month_day, ref, parameter, limit_type
