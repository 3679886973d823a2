-- check_expectations_flow_sample: one stretch of the flow readings for the GX suite
-- expectations/flow.json: the readings stored at places $first to $first + $rows - 1 of the
-- table (DuckDB's rowid), in that order. The check takes FLOW_SAMPLE_STRETCHES such stretches
-- spread evenly over the table (assets/checks.py). A range of rowid is read from those places
-- alone, where ordering every reading (by a hash of its key, say) would read the whole table on
-- every run.
SELECT user_id, constituent, ts, value, unit
FROM flow
WHERE rowid >= $first AND rowid < $first + $rows
ORDER BY rowid;
