-- The adopted rates of one year.
SELECT district, component, rate_per_unit, source_file, source_row
FROM sewer_rates
WHERE year = $year
ORDER BY district, component, source_file, source_row;
