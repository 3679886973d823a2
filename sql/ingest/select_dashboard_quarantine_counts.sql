-- Quarantined rows by dataset and reason.
SELECT dataset, reason, count(*) AS rows
FROM quarantine
GROUP BY dataset, reason
ORDER BY dataset, rows DESC, reason;
