-- The quarantined rows of a file Outfall prefilled for a person's answers (exports/to_record.xlsx; a
-- workbook's sheets' rows are named "file [sheet]"), loaded at $now: the pages and the worklist list them
-- first (contract 7.5).
UPDATE quarantine SET prefilled = TRUE
WHERE
    dataset = $dataset AND quarantined_at = $now
    AND (source_file = $source_file OR starts_with(source_file, $source_file || ' ['));
