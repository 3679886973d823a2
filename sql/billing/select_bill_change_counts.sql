-- How many parcels each kind of change touched in one run, and the money moved.
SELECT compared_to, compared_run_id, compared_year, change, count(*) AS parcels,
       sum(total_change) AS total_change
FROM bill_changes
WHERE run_id = $run_id
GROUP BY compared_to, compared_run_id, compared_year, change
ORDER BY compared_to DESC, change;
