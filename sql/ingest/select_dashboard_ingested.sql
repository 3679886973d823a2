-- Files and rows read, kept and quarantined per dataset (ledger of the ingestion assets).
SELECT dataset, count(*) AS files, sum(rows_read) AS rows_read, sum(rows_kept) AS rows_kept,
       sum(rows_quarantined) AS rows_quarantined, max(loaded_at) AS last_loaded
FROM ingested_files
GROUP BY dataset
ORDER BY dataset;
