-- Forget a file's earlier load (it changed on disk): its quarantine rows (a workbook's
-- sheets included: "name.xlsx [Sheet]") and ledger entry.
DELETE FROM quarantine WHERE dataset = $dataset
    AND (source_file = $source_file OR starts_with(source_file, $source_file || ' ['));
DELETE FROM ingested_files WHERE dataset = $dataset AND source_file = $source_file;
