-- The quarantined rows listed on the quarantine page: the first $per_reason rows (by file and
-- row) of each dataset and reason, each with how many rows share its reason, and whether it is a row
-- of a sheet Outfall prefilled (to_record.xlsx, a sheet's rows named "file [sheet]"): those first.
WITH prefilled AS (
    SELECT DISTINCT dataset, source_file
    FROM ingested_files
    WHERE coalesce(prefilled, FALSE)
),

q AS (
    SELECT
        qr.dataset, qr.source_file, qr."row_number", qr.reason, qr.raw, qr.quarantined_at,
        EXISTS (
            SELECT 1 FROM prefilled AS p
            WHERE p.dataset = qr.dataset
                AND (qr.source_file = p.source_file OR starts_with(qr.source_file, p.source_file || ' ['))
        ) AS prefilled
    FROM quarantine AS qr
)

SELECT dataset, source_file, "row_number", reason, raw, quarantined_at, reason_rows, prefilled
FROM (
    SELECT
        dataset, source_file, "row_number", reason, raw, quarantined_at, prefilled,
        count(*) OVER (PARTITION BY dataset, reason) AS reason_rows,
        row_number() OVER (PARTITION BY dataset, reason
                           ORDER BY source_file, "row_number" NULLS FIRST) AS nth
    FROM q
)
WHERE nth <= $per_reason
ORDER BY NOT prefilled, dataset, reason_rows DESC, reason, source_file, "row_number" NULLS FIRST;
