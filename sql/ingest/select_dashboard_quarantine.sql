-- The quarantined rows listed on the quarantine page: the first $per_reason rows (by file and
-- row) of each dataset and reason, each with how many rows share its reason, and whether it is a row
-- of a sheet Outfall prefilled (quarantine.prefilled): those first.
SELECT dataset, source_file, "row_number", reason, raw, quarantined_at, reason_rows, prefilled
FROM (
    SELECT
        dataset, source_file, "row_number", reason, raw, quarantined_at, prefilled,
        count(*) OVER (PARTITION BY dataset, reason) AS reason_rows,
        row_number() OVER (PARTITION BY dataset, reason
                           ORDER BY source_file, "row_number" NULLS FIRST) AS nth
    FROM (SELECT * REPLACE (coalesce(prefilled, FALSE) AS prefilled) FROM quarantine)
)
WHERE nth <= $per_reason
ORDER BY NOT prefilled, dataset, reason_rows DESC, reason, source_file, "row_number" NULLS FIRST;
