-- The industrial users as the sewer page shows them (the permit's normal flow under a short name), each
-- with its current permit (user_permits, contract 8.2: the latest to expire of those in force) and, in
-- words, every other permit it holds or held (a renewal is a permit of its own; one no input gives any
-- longer is marked so; a withdrawn one is not listed).
WITH others AS (
    SELECT user_id,
           string_agg(
               coalesce(permit_no, '(no number)') || ' ('
               || coalesce(strftime(effective_on, '%Y-%m-%d'), '…') || ' to '
               || coalesce(strftime(expires_on, '%Y-%m-%d'), '…')
               || CASE WHEN in_inputs THEN '' ELSE ', no longer in the inputs' END || ')',
               '; ' ORDER BY effective_on NULLS FIRST, permit_no
           ) AS other_permits
    FROM user_permits
    WHERE status = 'in_force' AND NOT is_current
    GROUP BY user_id
)
SELECT u.user_id, u.name, u.district, u.address, p.permit_no, p.effective_on AS permit_effective,
       p.expires_on AS permit_expires, o.other_permits, u.normal_avg_flow_gpd AS normal_flow_gpd
FROM industrial_users AS u
LEFT JOIN user_permits AS p ON p.user_id = u.user_id AND p.is_current
LEFT JOIN others AS o ON o.user_id = u.user_id
ORDER BY u.user_id;
