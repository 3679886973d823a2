-- Rows kept on input that an asset could not judge (table set_aside), for the quarantine page.
SELECT dataset, source_file, row_number, reason, raw, judged_by
FROM set_aside
ORDER BY dataset, reason, source_file, row_number;
