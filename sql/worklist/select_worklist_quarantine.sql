-- Input files with rows that could not be read, per dataset and file: how many, and the most frequent reason.
SELECT dataset, source_file, count(*) AS rows, mode(reason) AS reason, min(row_number) AS first_row
FROM quarantine
GROUP BY dataset, source_file
ORDER BY dataset, source_file
