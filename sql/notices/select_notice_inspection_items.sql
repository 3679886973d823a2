-- Notice items of kind `inspection` (contract 6.1): each row of swppp_inspection_findings, in the month of
-- its due_by; known the day after it; resolved by the inspection made late, if one was.
SELECT site_id AS recipient_id, requirement || ' ' || strftime(due_by, '%Y-%m-%d') AS ref, rule,
       due_by AS month_day, due_by + 1 AS known_on, satisfied_on AS resolved_on,
       requirement, trigger_date, due_by, jurisdiction
FROM swppp_inspection_findings
ORDER BY recipient_id, due_by, requirement, trigger_date
