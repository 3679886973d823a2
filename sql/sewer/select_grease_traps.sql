-- Grease traps and the pump-out frequencies set for them (grease_traps), with the owner an order goes to
-- (contract 8.4): the owner the trap's row names (owner_name and its mailing address), else the owner of the
-- trap's parcel (parcels: owner, at mailing_address else address, city, state, zip) when parcel_id is given;
-- with neither, no owner (the order is not ready). The trap's user (industrial_users, its latest permit's
-- row) gives the address of the premises when the trap gives none.
SELECT g.trap_id, g.user_id, g.parcel_id, g.establishment, g.address, g.pumpout_interval_days, g.set_on,
       u.name AS user_name, u.address AS user_address,
       CASE WHEN nullif(trim(g.owner_name), '') IS NOT NULL THEN 'trap' WHEN p.owner IS NOT NULL THEN 'parcel'
       END AS owner_from,
       coalesce(nullif(trim(g.owner_name), ''), p.owner) AS owner_name,
       CASE WHEN nullif(trim(g.owner_name), '') IS NOT NULL THEN g.owner_address
            ELSE coalesce(nullif(trim(p.mailing_address), ''), p.address) END AS owner_address,
       CASE WHEN nullif(trim(g.owner_name), '') IS NOT NULL THEN g.owner_city ELSE p.city END AS owner_city,
       CASE WHEN nullif(trim(g.owner_name), '') IS NOT NULL THEN g.owner_state ELSE p.state END
           AS owner_state,
       CASE WHEN nullif(trim(g.owner_name), '') IS NOT NULL THEN g.owner_zip ELSE p.zip END AS owner_zip
FROM grease_traps AS g
LEFT JOIN (SELECT user_id,
                  arg_max(name, coalesce(permit_effective, DATE '0001-01-01')) AS name,
                  arg_max(address, coalesce(permit_effective, DATE '0001-01-01')) AS address
           FROM industrial_users GROUP BY user_id) AS u USING (user_id)
LEFT JOIN (SELECT parcel_id, owner, address, mailing_address, city, state, zip
           FROM parcels WHERE nullif(trim(owner), '') IS NOT NULL) AS p ON p.parcel_id = g.parcel_id
ORDER BY g.trap_id, g.set_on
