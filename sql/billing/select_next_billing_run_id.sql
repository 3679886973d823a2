-- The id of the next billing run, and the hash of the last one (the chain's previous link).
SELECT
    coalesce(max(run_id), 0) + 1 AS run_id,
    coalesce(arg_max(run_hash, run_id), repeat('0', 64)) AS previous_run_hash
FROM billing_runs;
