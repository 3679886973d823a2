-- Input files with rows that could not be read, per dataset and file: how many, the most frequent
-- reason, the first row and the day they were set aside; a sheet Outfall prefilled (to_record.xlsx:
-- quarantine.prefilled) row by row, with its reason, listed first (contract 7.5).
SELECT
    dataset, source_file, prefilled,
    CASE WHEN prefilled THEN "row_number" END AS row_key,
    count(*) AS rows, mode(reason) AS reason, min("row_number") AS first_row,
    CAST(min(quarantined_at) AS DATE) AS found_on
FROM (SELECT * REPLACE (coalesce(prefilled, FALSE) AS prefilled) FROM quarantine)
GROUP BY dataset, source_file, prefilled, row_key
ORDER BY NOT prefilled, dataset, source_file, row_key
