-- The latest run of one billing year.
SELECT run_id, inputs_sha256, register_sha256
FROM billing_runs
WHERE year = $year
ORDER BY run_id DESC
LIMIT 1;
