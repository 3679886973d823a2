-- Rows read, kept and quarantined per dataset over every file loaded (the run's summary on the
-- terminal and the quarantine asset's ledger table).
SELECT dataset, sum(rows_read), sum(rows_kept), sum(rows_quarantined)
FROM ingested_files
GROUP BY dataset
ORDER BY dataset;
