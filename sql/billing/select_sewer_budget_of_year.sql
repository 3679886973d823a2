-- The budget lines of one year.
SELECT district, component, amount, source_file, source_row
FROM sewer_budget
WHERE year = $year
ORDER BY district, component, source_file, source_row;
