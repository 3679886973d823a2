-- The quarantined rows listed on the quarantine page: the first $per_reason rows (by file and
-- row) of each dataset and reason, each with how many rows share its reason.
SELECT dataset, source_file, "row_number", reason, raw, quarantined_at, reason_rows
FROM (
    SELECT dataset, source_file, "row_number", reason, raw, quarantined_at,
           count(*) OVER (PARTITION BY dataset, reason) AS reason_rows,
           row_number() OVER (PARTITION BY dataset, reason
                              ORDER BY source_file, "row_number" NULLS FIRST) AS nth
    FROM quarantine
)
WHERE nth <= $per_reason
ORDER BY dataset, reason_rows DESC, reason, source_file, "row_number" NULLS FIRST;
