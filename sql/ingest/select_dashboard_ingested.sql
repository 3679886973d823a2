-- Files and rows read, kept and quarantined per dataset (ledger of the ingestion assets), and the rows
-- of to_record.xlsx saved back with nothing filled in (left blank: they record nothing).
SELECT dataset, count(*) AS files, sum(rows_read) AS rows_read, sum(rows_kept) AS rows_kept,
       sum(rows_quarantined) AS rows_quarantined, coalesce(sum(rows_left_blank), 0) AS rows_left_blank,
       max(loaded_at) AS last_loaded
FROM ingested_files
GROUP BY dataset
ORDER BY dataset;
