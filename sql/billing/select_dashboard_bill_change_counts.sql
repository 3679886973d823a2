-- The year's changes from the previous billed year, by kind.
SELECT change, count(*) AS parcels, sum(total_change)::DOUBLE AS total_change
FROM bill_changes
WHERE year = $year AND compared_to = 'previous_year'
  AND run_id = (SELECT max(run_id) FROM billing_runs WHERE year = $year)  -- the latest run only
GROUP BY change
ORDER BY parcels DESC, change;
