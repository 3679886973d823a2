-- Each permit in force that expires (user_permits, contract 8.2), with the permit that renewed it: the
-- first of the user's later permits in force (one that begins after it began and ends after it ends),
-- renewed on its day of issue, else its first day. A renewal adds a permit and never shortens another.
SELECT p.user_id, p.name, p.permit_no, p.expires_on AS permit_expires,
       arg_min(n.permit_no, coalesce(n.issued_on, n.effective_on)) AS renewed_by,
       min(coalesce(n.issued_on, n.effective_on)) AS renewed_on
FROM user_permits AS p
LEFT JOIN user_permits AS n
    ON n.user_id = p.user_id AND n.status = 'in_force'
       AND coalesce(n.effective_on, DATE '0001-01-01') > coalesce(p.effective_on, DATE '0001-01-01')
       AND coalesce(n.expires_on, DATE '9999-12-31') > p.expires_on
WHERE p.status = 'in_force' AND p.expires_on IS NOT NULL
GROUP BY p.user_id, p.name, p.permit_no, p.expires_on
ORDER BY p.user_id, p.expires_on, p.permit_no;
