-- Rows that ingestion kept but an asset could not judge (a case dated before its chapter
-- took effect, a payment for a case that is not on file): set aside here with the reason,
-- marked with the asset that judged them. They stay in their input table too, so they are
-- not in `quarantine`: for every dataset, rows read = rows kept + rows quarantined.
CREATE TABLE IF NOT EXISTS set_aside (
    dataset VARCHAR NOT NULL,
    source_file VARCHAR,
    row_number BIGINT,
    reason VARCHAR NOT NULL,
    raw VARCHAR,
    judged_by VARCHAR NOT NULL       -- the asset that set the row aside
);
-- No time stamp: the same inputs set the same rows aside, so a rerun changes nothing.
