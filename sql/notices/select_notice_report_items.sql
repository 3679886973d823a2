-- Notice items of kind `late_report` (contract 6.1): each report, notice or statement a user owed the
-- administrator (every obligation but the Town's own reminder to renew a permit) that came late or has
-- not come, in the month of its due date; known the day after it was due; resolved when received.
SELECT user_id AS recipient_id, strftime(due, '%Y-%m-%d') AS ref, rule, due AS month_day,
       due + 1 AS known_on, satisfied_on AS resolved_on,
       obligation, trigger_date, due, reference, detail
FROM obligations
WHERE status IN ('late', 'overdue') AND obligation <> 'permit_renewal'
ORDER BY recipient_id, due, obligation, reference
