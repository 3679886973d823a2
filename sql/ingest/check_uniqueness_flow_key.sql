-- check_uniqueness_flow_key: readings sharing the natural key user_id + constituent + ts.
-- One summary row: how many keys are repeated, how many rows are extra copies, and examples.
-- Candidates are found by one 64-bit hash of the key (one narrow column to group, which
-- matters at 100M readings), then counted exactly.
WITH candidates AS (
    SELECT hash(user_id, constituent, ts) AS h
    FROM flow
    GROUP BY 1
    HAVING count(*) > 1
), repeated AS (
    SELECT user_id, constituent, ts, count(*) AS copies
    FROM flow
    WHERE hash(user_id, constituent, ts) IN (SELECT h FROM candidates)
    GROUP BY user_id, constituent, ts
    HAVING count(*) > 1
)
SELECT count(*) AS duplicate_keys,
       coalesce(sum(copies - 1), 0) AS extra_rows,
       coalesce(list(struct_pack(user_id, constituent, ts, copies)
                     ORDER BY copies DESC, user_id, constituent, ts)[1:$examples], []) AS examples
FROM repeated;
