-- Industrial users' permits and their expiry dates.
SELECT user_id, name, permit_no, permit_expires
FROM industrial_users
WHERE permit_expires IS NOT NULL
ORDER BY user_id
