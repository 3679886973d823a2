-- Rate per unit of each year's last billing run, by district and component.
SELECT year, district, component, rate_per_unit::DOUBLE AS rate_per_unit, rate_source
FROM billing_run_totals
WHERE (year, run_id) IN (SELECT year, max(run_id) FROM billing_run_totals GROUP BY year)
  AND (year = $year OR year = $previous_year)
ORDER BY year, district, component;
