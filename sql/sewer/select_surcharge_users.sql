-- Industrial users' names, permit flows (normal_avg_flow_gpd), whether they are outside the corporate
-- limits and whether their permit sets a surcharge, for surcharges (the latest permit's row).
SELECT user_id, arg_max(name, coalesce(permit_effective, DATE '0001-01-01')) AS name,
       arg_max(normal_avg_flow_gpd, coalesce(permit_effective, DATE '0001-01-01')) AS normal_avg_flow_gpd,
       arg_max(outside_limits, coalesce(permit_effective, DATE '0001-01-01')) AS outside_limits,
       arg_max(permit_sets_surcharge, coalesce(permit_effective, DATE '0001-01-01')) AS permit_sets_surcharge
FROM industrial_users
GROUP BY user_id
