-- Quarantined rows per dataset.
SELECT dataset, count(*) AS n FROM quarantine GROUP BY dataset ORDER BY dataset;
