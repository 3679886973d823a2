-- Each user's permit normal_avg_flow_gpd as slug detection reads it (view slug_permits).
SELECT user_id, normal_avg_flow_gpd FROM slug_permits ORDER BY user_id
