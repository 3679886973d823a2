-- The contract's own tables, created if missing (idempotent): the quarantine,
-- the ledger of loaded files and the output tables of section 3.
-- Input tables (one per dataset folder, with their <table>_history) are created
-- from the dataset specs (outfall.ingest.compile.create_table_sql): typed canonical
-- columns plus provenance (source_file, source_row, loaded_at, row_hash).

CREATE TABLE IF NOT EXISTS quarantine (
    dataset VARCHAR NOT NULL,
    source_file VARCHAR NOT NULL,
    row_number INTEGER,
    reason VARCHAR NOT NULL,
    raw VARCHAR,
    quarantined_at TIMESTAMPTZ,
    -- a row of a sheet Outfall prefilled (exports/to_record.xlsx), filled against its rules: listed first
    prefilled BOOLEAN
);

CREATE TABLE IF NOT EXISTS ingested_files (
    dataset VARCHAR NOT NULL,
    source_file VARCHAR NOT NULL,
    sha256 VARCHAR NOT NULL,
    size_bytes BIGINT,
    loaded_at TIMESTAMPTZ,
    rows_read INTEGER,
    rows_kept INTEGER,
    rows_quarantined INTEGER,
    rows_new INTEGER,
    rows_superseded INTEGER,
    -- size, modification and change times (ns), inode and device of the file as it was read: a
    -- file found with the same stamp is not read again (null: read and hashed on the next run)
    file_stamp VARCHAR,
    -- rows of exports/to_record.xlsx saved back with nothing filled in: they record nothing and, like
    -- blank lines, are not rows read (contract 7.5: "left blank")
    rows_left_blank INTEGER,
    -- a sheet Outfall prefilled (to_record.xlsx): its quarantined rows come first
    prefilled BOOLEAN
);

-- Output tables of the contract (section 3).

CREATE TABLE IF NOT EXISTS discharge_violations (
    user_id VARCHAR, sample_id VARCHAR, parameter VARCHAR, collected_at TIMESTAMPTZ,
    value DOUBLE, unit VARCHAR, limit_value DOUBLE, limit_type VARCHAR, rule VARCHAR,
    limit_source VARCHAR, exceedance_ratio DOUBLE, sample_type VARCHAR
);

CREATE TABLE IF NOT EXISTS slug_events (
    user_id VARCHAR, constituent VARCHAR, start_at TIMESTAMPTZ, end_at TIMESTAMPTZ,
    duration_min INTEGER, baseline DOUBLE, peak_value DOUBLE, peak_ratio DOUBLE,
    unit VARCHAR, readings INTEGER, baseline_source VARCHAR, rule VARCHAR
);

CREATE TABLE IF NOT EXISTS infiltration_results (
    section_id VARCHAR, test_date DATE, allowable_gpd DOUBLE, measured_gpd DOUBLE,
    gpimd DOUBLE, passes BOOLEAN, diameter_in DOUBLE, length_ft DOUBLE, rule VARCHAR
);

CREATE TABLE IF NOT EXISTS sewer_bills (
    year INTEGER, parcel_id VARCHAR, district VARCHAR, property_class VARCHAR,
    units_bond INTEGER, units_om INTEGER, units_street_lateral INTEGER, units_house_lateral INTEGER,
    amount_bond DECIMAL(12,2), amount_om DECIMAL(12,2), amount_street_lateral DECIMAL(12,2),
    amount_house_lateral DECIMAL(12,2), total_usd DECIMAL(12,2),
    explanation VARCHAR, rule VARCHAR
);

CREATE TABLE IF NOT EXISTS swppp_inspection_findings (
    site_id VARCHAR, requirement VARCHAR, trigger_date DATE, due_by DATE, satisfied_on DATE,
    status VARCHAR, jurisdiction VARCHAR, rule VARCHAR, days_late INTEGER
);

CREATE TABLE IF NOT EXISTS snc_determinations (
    user_id VARCHAR, period_start DATE, period_end DATE, parameter VARCHAR, criterion VARCHAR,
    measurements INTEGER, count INTEGER, pct DOUBLE, rule VARCHAR
);
