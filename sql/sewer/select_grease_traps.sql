-- Grease traps and the pump-out frequencies set for them (grease_traps), with
-- the owner's user (industrial_users) when the trap names one.
SELECT g.trap_id, g.user_id, g.parcel_id, g.establishment, g.address, g.pumpout_interval_days, g.set_on,
       u.name AS user_name, u.address AS user_address
FROM grease_traps g
LEFT JOIN (SELECT user_id, any_value(name) AS name, any_value(address) AS address
           FROM industrial_users GROUP BY user_id) u USING (user_id)
ORDER BY g.trap_id, g.set_on
