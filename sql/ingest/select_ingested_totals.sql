-- Rows read, kept and quarantined per dataset over every file loaded (the run's summary).
SELECT dataset, sum(rows_read), sum(rows_kept), sum(rows_quarantined)
FROM ingested_files
GROUP BY dataset;
