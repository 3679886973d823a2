-- The ledger of one dataset: each file as last loaded, its sha256 and its stamp (size, times,
-- inode; outfall/ingest/files.py: file_stamp). A file whose stamp is unchanged is not read again.
SELECT source_file, sha256, file_stamp
FROM ingested_files
WHERE dataset = $dataset
QUALIFY row_number() OVER (PARTITION BY source_file ORDER BY loaded_at DESC NULLS LAST) = 1;
