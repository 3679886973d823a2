-- A file found unchanged by its sha256 (hashed because it had no stamp, or another): its stamp now,
-- so that the next run need not read it.
UPDATE ingested_files SET file_stamp = $file_stamp
WHERE dataset = $dataset AND source_file = $source_file AND sha256 = $sha256;
