-- SNC determinations with the user's name, address and current permit (user_permits, contract 8.2), for
-- the annual list.
WITH users AS (
    SELECT user_id, arg_max(name, coalesce(permit_effective, DATE '0001-01-01')) AS name,
           arg_max(address, coalesce(permit_effective, DATE '0001-01-01')) AS address
    FROM industrial_users GROUP BY user_id
)
SELECT s.user_id, s.period_start, s.period_end, s.parameter, s.criterion, s.measurements, s.count, s.pct,
       u.name, u.address, p.permit_no
FROM snc_determinations s LEFT JOIN users u USING (user_id)
LEFT JOIN user_permits p ON p.user_id = s.user_id AND p.is_current
ORDER BY s.user_id, s.period_start, s.criterion, s.parameter
