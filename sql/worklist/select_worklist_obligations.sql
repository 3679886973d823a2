-- Every open or overdue deadline of the sewer administrator's engine (obligations), with the user's name.
SELECT o.user_id, u.name, o.obligation, o.trigger_date, o.due, o.status, o.reference, o.detail, o.rule
FROM obligations o
LEFT JOIN (SELECT user_id, any_value(name) AS name FROM industrial_users GROUP BY user_id) u USING (user_id)
WHERE o.status IN ('open', 'overdue')
ORDER BY o.due, o.user_id, o.obligation, o.reference
