-- The rows an asset set aside this run (registered as _judged; $judged_by: the asset's name).
INSERT INTO set_aside (dataset, source_file, row_number, reason, raw, judged_by)
SELECT dataset, coalesce(source_file, ''), row_number, reason, raw, $judged_by FROM _judged;
