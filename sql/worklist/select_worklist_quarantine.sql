-- Input files with rows that could not be read, per dataset and file: how many, the most frequent
-- reason, the first row and the day they were set aside; a sheet Outfall prefilled (to_record.xlsx,
-- its sheets' rows named "file [sheet]") row by row, with its reason, listed first (contract 7.5).
WITH prefilled AS (
    SELECT DISTINCT dataset, source_file FROM ingested_files WHERE coalesce(prefilled, FALSE)
),

q AS (
    SELECT
        qr.*,
        EXISTS (
            SELECT 1 FROM prefilled AS p
            WHERE p.dataset = qr.dataset
                AND (qr.source_file = p.source_file OR starts_with(qr.source_file, p.source_file || ' ['))
        ) AS prefilled
    FROM quarantine AS qr
)

SELECT
    dataset, source_file, prefilled,
    CASE WHEN prefilled THEN "row_number" END AS row_key,
    count(*) AS rows, mode(reason) AS reason, min("row_number") AS first_row,
    CAST(min(quarantined_at) AS DATE) AS found_on
FROM q
GROUP BY dataset, source_file, prefilled, row_key
ORDER BY NOT prefilled, dataset, source_file, row_key
