-- The permits to renew (obligations permit_renewal, open or overdue), each waiting for the Superintendent's
-- record of the new permit (exports/to_record.xlsx, sheet permits: contract 8.2): the user, and for reading
-- only its name, the permit to renew, the day it expires and whether that day has passed.
SELECT o.user_id, u.name, o.reference AS permit_to_renew, o.due AS expires_on,
       CASE WHEN o.status = 'overdue' THEN 'expired' ELSE 'expires soon' END AS status
FROM obligations AS o
LEFT JOIN (SELECT user_id, any_value(name) AS name FROM industrial_users GROUP BY user_id) AS u
    USING (user_id)
WHERE o.obligation = 'permit_renewal' AND o.status IN ('open', 'overdue')
ORDER BY o.due, o.user_id, o.reference
