-- check_validity_flow_value: kept flow readings the contract does not allow.
-- A missing value, negative flow, a negative probe concentration, or pH outside
-- $ph_min..$ph_max s.u. One row per kind of problem found; no rows when the table is clean.
WITH flagged AS (
    SELECT user_id, constituent, ts, value, unit,
           CASE
               WHEN value IS NULL THEN 'missing value'
               WHEN constituent = 'flow' AND value < 0 THEN 'negative flow'
               WHEN constituent = 'pH' AND (value < $ph_min OR value > $ph_max) THEN 'pH out of range'
               WHEN constituent NOT IN ('flow', 'pH', 'temperature') AND value < 0
                   THEN 'negative concentration'
           END AS problem
    FROM flow
)
SELECT problem,
       count(*) AS readings,
       count(DISTINCT user_id) AS users,
       list(struct_pack(user_id, constituent, ts, value, unit) ORDER BY ts, user_id)[1:$examples] AS examples
FROM flagged
WHERE problem IS NOT NULL
GROUP BY problem
ORDER BY readings DESC, problem;
