INSERT INTO ingested_files (dataset, source_file, sha256, size_bytes, loaded_at, rows_read, rows_kept,
                            rows_quarantined, rows_new, rows_superseded, file_stamp, rows_left_blank,
                            prefilled)
VALUES ($dataset, $source_file, $sha256, $size_bytes, $now, $rows_read, $rows_kept, $rows_quarantined,
        $rows_new, $rows_superseded, $file_stamp, $rows_left_blank,
        $prefilled);
