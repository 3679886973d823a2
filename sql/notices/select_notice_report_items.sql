-- Notice items of kind `late_report` (contract 6.1): each report, notice or statement a user owed the
-- administrator (every obligation but the Town's own reminder to renew a permit) that came late or has
-- not come, in the month of its due date; known the day after it was due; resolved when received.
-- Only a duty the town's notices may count (contract 7.1: `adopted`, a duty of the town's own code or
-- of another law the rules adopt); a federal or state duty not adopted stays on the user's record.
SELECT user_id AS recipient_id, strftime(due, '%Y-%m-%d') AS ref, rule, law, due AS month_day,
       due + 1 AS known_on, satisfied_on AS resolved_on,
       obligation, trigger_date, due, reference, detail
FROM obligations
WHERE status IN ('late', 'overdue') AND obligation <> 'permit_renewal' AND adopted
ORDER BY recipient_id, due, obligation, reference
