-- Rejected rows of one file (registered as _rejected: row_number, reason, raw).
INSERT INTO quarantine (dataset, source_file, row_number, reason, raw, quarantined_at)
SELECT $dataset, $source_file, row_number, reason, raw, $now FROM _rejected;
