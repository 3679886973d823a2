-- Grease traps and the pump-out frequencies set for them (grease_traps), with the owner's user
-- (industrial_users, its latest permit's row) when the trap names one: the name and mailing address an
-- order goes to.
SELECT g.trap_id, g.user_id, g.parcel_id, g.establishment, g.address, g.pumpout_interval_days, g.set_on,
       u.name AS user_name, u.address AS user_address, u.mailing_name, u.mailing_address, u.city, u.state,
       u.zip
FROM grease_traps g
LEFT JOIN (SELECT user_id,
                  arg_max(name, coalesce(permit_effective, DATE '0001-01-01')) AS name,
                  arg_max(address, coalesce(permit_effective, DATE '0001-01-01')) AS address,
                  arg_max(mailing_name, coalesce(permit_effective, DATE '0001-01-01')) AS mailing_name,
                  arg_max(mailing_address, coalesce(permit_effective, DATE '0001-01-01')) AS mailing_address,
                  arg_max(city, coalesce(permit_effective, DATE '0001-01-01')) AS city,
                  arg_max(state, coalesce(permit_effective, DATE '0001-01-01')) AS state,
                  arg_max(zip, coalesce(permit_effective, DATE '0001-01-01')) AS zip
           FROM industrial_users GROUP BY user_id) u USING (user_id)
ORDER BY g.trap_id, g.set_on
