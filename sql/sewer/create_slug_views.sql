-- Inputs of slug detection inside the warehouse (the benchmark defines the same
-- two names over Parquet): readings in canonical units and each user's permit
-- normal_avg_flow_gpd (the latest permit's).
CREATE OR REPLACE TEMP VIEW slug_readings AS
SELECT user_id, coalesce(constituent, 'flow') AS constituent, ts, value
FROM flow
WHERE user_id IS NOT NULL AND ts IS NOT NULL AND value IS NOT NULL;

CREATE OR REPLACE TEMP VIEW slug_permits AS
SELECT user_id,
       arg_max(normal_avg_flow_gpd, coalesce(permit_effective, DATE '0001-01-01')) AS normal_avg_flow_gpd
FROM industrial_users
WHERE user_id IS NOT NULL
GROUP BY user_id;
