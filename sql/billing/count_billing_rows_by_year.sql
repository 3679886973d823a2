-- The rows of each billing table in each billing year of a run, for what the year's materialization
-- reports as its row count. A table and year absent here has none.
-- Parameters: $years (the run's billing years, a list of integers).
SELECT
    'sewer_bills' AS table_name,
    year,
    count(*) AS row_count
FROM sewer_bills WHERE list_contains($years, year) GROUP BY year
UNION ALL
SELECT
    'billing_runs' AS table_name,
    year,
    count(*) AS row_count
FROM billing_runs WHERE list_contains($years, year) GROUP BY year
UNION ALL
SELECT
    'billing_run_totals' AS table_name,
    year,
    count(*) AS row_count
FROM billing_run_totals WHERE list_contains($years, year) GROUP BY year
UNION ALL
SELECT
    'bill_changes' AS table_name,
    year,
    count(*) AS row_count
FROM bill_changes WHERE list_contains($years, year) GROUP BY year
UNION ALL
SELECT
    'billing_summary' AS table_name,
    year,
    count(*) AS row_count
FROM billing_summary WHERE list_contains($years, year) GROUP BY year
