-- Rows read, kept and quarantined of one dataset ($dataset) over every file loaded.
SELECT coalesce(sum(rows_read), 0), coalesce(sum(rows_kept), 0), coalesce(sum(rows_quarantined), 0)
FROM ingested_files
WHERE dataset = $dataset;
