-- The permits to renew (obligations permit_renewal, open or overdue), with the user's name: the one
-- obligation that is the Superintendent's own act. The users' own duties (reports, notices, resamples)
-- are items of their notices or lines of their record, not actions of the worklist (contract 7.5).
SELECT o.user_id, u.name, o.obligation, o.trigger_date, o.due, o.status, o.reference, o.detail, o.rule
FROM obligations AS o
LEFT JOIN (SELECT user_id, any_value(name) AS name FROM industrial_users GROUP BY user_id) AS u
    USING (user_id)
WHERE o.obligation = 'permit_renewal' AND o.status IN ('open', 'overdue')
ORDER BY o.due, o.user_id, o.reference
