-- The ledger entries of a group of files loaded together, one list per column, in the files' order (a
-- group holds no row Outfall prefilled: none is left blank).
INSERT INTO ingested_files (dataset, source_file, sha256, size_bytes, loaded_at, rows_read, rows_kept,
                            rows_quarantined, rows_new, rows_superseded, file_stamp, rows_left_blank,
                            prefilled)
SELECT $dataset, unnest($source_file), unnest($sha256), unnest($size_bytes), $now, unnest($rows_read),
       unnest($rows_kept), unnest($rows_quarantined), unnest($rows_new), unnest($rows_superseded),
       unnest($file_stamp), 0, FALSE;
