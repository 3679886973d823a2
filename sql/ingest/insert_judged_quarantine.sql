-- Rows an asset could not judge (registered as _judged: dataset, source_file, row_number,
-- reason, raw), marked with the asset's name.
INSERT INTO quarantine (dataset, source_file, row_number, reason, raw, quarantined_at, judged_by)
SELECT dataset, coalesce(source_file, ''), row_number, reason, raw, $now, $judged_by FROM _judged;
