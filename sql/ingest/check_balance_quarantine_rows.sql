-- check_balance_quarantine_rows: for every dataset, rows read = rows kept + rows quarantined
-- (the ledger ingested_files, summed over files and checked file by file), and the ledger's
-- quarantined count equals the rows actually in the quarantine table. (Rows an asset sets
-- aside later stay kept: they are in table set_aside, not here.)
WITH ledger AS (
    SELECT dataset,
           count(*) AS files,
           sum(rows_read) AS rows_read,
           sum(rows_kept) AS rows_kept,
           sum(rows_quarantined) AS rows_quarantined,
           count(*) FILTER (WHERE rows_read IS DISTINCT FROM rows_kept + rows_quarantined) AS unbalanced_files
    FROM ingested_files
    GROUP BY dataset
), stored AS (
    SELECT dataset, count(*) AS quarantine_rows
    FROM quarantine
    GROUP BY dataset
), joined AS (
    SELECT coalesce(l.dataset, s.dataset) AS dataset,
           coalesce(l.files, 0) AS files,
           coalesce(l.rows_read, 0) AS rows_read,
           coalesce(l.rows_kept, 0) AS rows_kept,
           coalesce(l.rows_quarantined, 0) AS rows_quarantined,
           coalesce(l.unbalanced_files, 0) AS unbalanced_files,
           coalesce(s.quarantine_rows, 0) AS quarantine_rows
    FROM ledger AS l
    FULL OUTER JOIN stored AS s ON s.dataset = l.dataset
)
SELECT *,
       unbalanced_files = 0 AND rows_read = rows_kept + rows_quarantined AS balanced,
       rows_quarantined = quarantine_rows AS quarantine_matches
FROM joined
ORDER BY dataset;
