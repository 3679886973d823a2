-- Input rows that ingestion kept but an asset could not judge against the rules or other
-- tables (a case dated before its chapter took effect, a payment for a case that is not on
-- file): one row per input row, with its file and row number, the reason and the asset that
-- judged it (outfall/set_aside.py). They stay in their input table too, so they are not in
-- `quarantine` (rows ingestion refused): for every dataset, rows read = rows kept + rows
-- quarantined. What an asset could not judge for want of a rule in effect on its day is not
-- an input row: it is in `not_judged` (sql/run/create_run_tables.sql).
CREATE TABLE IF NOT EXISTS set_aside (
    dataset VARCHAR NOT NULL,
    source_file VARCHAR,
    row_number BIGINT,
    reason VARCHAR NOT NULL,
    raw VARCHAR,
    judged_by VARCHAR NOT NULL       -- the asset that set the row aside
);
-- No time stamp: the same inputs set the same rows aside, so a rerun changes nothing.
