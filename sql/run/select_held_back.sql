-- The input rows the latest run did not judge, dated after its day, per folder (those with any).
SELECT dataset, rows_after, later_facts_after, quarantined_after
FROM held_back
WHERE rows_after > 0 OR later_facts_after > 0 OR quarantined_after > 0
ORDER BY dataset;
