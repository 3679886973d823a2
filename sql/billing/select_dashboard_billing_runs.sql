-- The billing runs of the years shown.
SELECT year, run_id, run_at, rules_version, rate_source, parcels_billed, total_usd::DOUBLE AS total_usd,
       run_hash
FROM billing_runs
WHERE year = $year OR year = $previous_year
ORDER BY run_id;
