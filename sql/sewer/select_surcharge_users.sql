-- Industrial users' names and permit flows (normal_avg_flow_gpd) for surcharges.
SELECT user_id, arg_max(name, coalesce(permit_effective, DATE '0001-01-01')) AS name,
       arg_max(normal_avg_flow_gpd, coalesce(permit_effective, DATE '0001-01-01')) AS normal_avg_flow_gpd
FROM industrial_users
GROUP BY user_id
