-- The industrial users as the sewer page shows them (the permit's normal flow under a short name).
SELECT user_id, name, district, address, permit_no, permit_effective, permit_expires,
       normal_avg_flow_gpd AS normal_flow_gpd
FROM industrial_users
ORDER BY user_id;
