-- Why rows of one dataset ($dataset) were quarantined since $since (the files a run loaded): each reason
-- with its rows and how many of them stand for a whole file that could not be read (row 0).
SELECT
    reason,
    count(*) AS quarantined,
    count(*) FILTER (WHERE row_number = 0) AS files_not_read
FROM quarantine
WHERE dataset = $dataset AND quarantined_at >= $since
GROUP BY reason
ORDER BY quarantined DESC, reason;
