-- The quarantined rows listed on the quarantine page (the first $limit).
SELECT dataset, source_file, row_number, reason, raw, quarantined_at
FROM quarantine
ORDER BY dataset, source_file, row_number NULLS FIRST
LIMIT $limit;
