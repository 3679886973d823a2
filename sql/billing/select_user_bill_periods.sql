-- Every billing period of the premises an industrial user is linked to (industrial_users.parcel_id): the
-- period's sewer charges (table volume_charges), for the users' bills.
SELECT
    u.user_id, u.name, u.parcel_id, c.period_start, c.period_end, c.fixed_usd, c.total_usd, c.amounts_set_by,
    c.explanation, c.rule
FROM (
    SELECT user_id, arg_max(name, coalesce(permit_effective, DATE '0001-01-01')) AS name,
           arg_max(parcel_id, coalesce(permit_effective, DATE '0001-01-01')) AS parcel_id
    FROM industrial_users
    GROUP BY user_id
) AS u
INNER JOIN volume_charges AS c ON u.parcel_id = c.parcel_id
ORDER BY u.user_id, c.period_start
