-- check_expectations_flow_sample: a deterministic sample of flow readings for the GX suite
-- expectations/flow.json: the $rows readings with the smallest hash of their natural key
-- (the copies of a repeated key hash alike, so they are sampled together or not at all).
SELECT user_id, constituent, ts, value, unit
FROM flow
ORDER BY hash(user_id, constituent, ts), user_id, constituent, ts, value
LIMIT $rows;
