-- SNC determinations with the user's name, address and permit, for the annual list.
WITH users AS (
    SELECT user_id, arg_max(name, coalesce(permit_effective, DATE '0001-01-01')) AS name,
           arg_max(address, coalesce(permit_effective, DATE '0001-01-01')) AS address,
           arg_max(permit_no, coalesce(permit_effective, DATE '0001-01-01')) AS permit_no
    FROM industrial_users GROUP BY user_id
)
SELECT s.user_id, s.period_start, s.period_end, s.parameter, s.criterion, s.measurements, s.count, s.pct,
       u.name, u.address, u.permit_no
FROM snc_determinations s LEFT JOIN users u USING (user_id)
ORDER BY s.user_id, s.period_start, s.criterion, s.parameter
