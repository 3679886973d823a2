-- Every table of the warehouse, created if missing (idempotent).
-- Input tables hold the kept rows of each dataset in canonical units, with
-- their provenance (source_file, source_row, loaded_at) and a row_hash of the
-- canonical values used to tell a corrected re-send from a repeat.

CREATE TABLE IF NOT EXISTS quarantine (
    dataset VARCHAR NOT NULL,
    source_file VARCHAR NOT NULL,
    row_number INTEGER,
    reason VARCHAR NOT NULL,
    raw VARCHAR,
    quarantined_at TIMESTAMPTZ
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
    rows_superseded INTEGER
);

CREATE TABLE IF NOT EXISTS industrial_users (
    user_id VARCHAR, name VARCHAR, district VARCHAR, address VARCHAR, permit_no VARCHAR,
    permit_effective DATE, permit_expires DATE, normal_avg_flow_gpd DOUBLE,
    source_file VARCHAR, source_row INTEGER, loaded_at TIMESTAMPTZ, row_hash VARCHAR
);

CREATE TABLE IF NOT EXISTS permit_limits (
    user_id VARCHAR, parameter VARCHAR, limit_type VARCHAR, value DOUBLE, unit VARCHAR,
    unit_reported VARCHAR, value_reported DOUBLE, basis VARCHAR, effective_from DATE, effective_to DATE,
    source_file VARCHAR, source_row INTEGER, loaded_at TIMESTAMPTZ, row_hash VARCHAR
);

CREATE TABLE IF NOT EXISTS lab_results (
    sample_id VARCHAR, user_id VARCHAR, collected_at TIMESTAMPTZ, collected_date DATE,
    sample_type VARCHAR, parameter VARCHAR, parameter_reported VARCHAR,
    result DOUBLE,              -- canonical unit; for a non-detect, the detection value
    nondetect BOOLEAN,          -- true for '<X' and 'ND'
    qualifier VARCHAR,          -- '<' or 'ND' for non-detects, else NULL
    result_reported VARCHAR,    -- the text as received
    unit VARCHAR,               -- canonical: mg/L, s.u. or degF
    unit_reported VARCHAR, mdl DOUBLE, lab VARCHAR, method VARCHAR,
    source_file VARCHAR, source_row INTEGER, loaded_at TIMESTAMPTZ, row_hash VARCHAR
);

CREATE TABLE IF NOT EXISTS flow (
    user_id VARCHAR, constituent VARCHAR, ts TIMESTAMPTZ,
    value DOUBLE,               -- canonical: gpm for flow, s.u., degF, mg/L
    unit VARCHAR, unit_reported VARCHAR, value_reported DOUBLE,
    source_file VARCHAR, source_row INTEGER, loaded_at TIMESTAMPTZ, row_hash VARCHAR
);

CREATE TABLE IF NOT EXISTS infiltration_tests (
    section_id VARCHAR, test_date DATE, diameter_in DOUBLE, length_ft DOUBLE, measured_gpd DOUBLE,
    source_file VARCHAR, source_row INTEGER, loaded_at TIMESTAMPTZ, row_hash VARCHAR
);

CREATE TABLE IF NOT EXISTS parcels (
    parcel_id VARCHAR, district VARCHAR, property_class VARCHAR, acres DOUBLE,
    living_units INTEGER, bathrooms INTEGER, washing_machines INTEGER, people INTEGER, seats INTEGER,
    moratorium BOOLEAN, owner VARCHAR, address VARCHAR,
    source_file VARCHAR, source_row INTEGER, loaded_at TIMESTAMPTZ, row_hash VARCHAR
);

CREATE TABLE IF NOT EXISTS sewer_rates (
    year INTEGER, district VARCHAR, component VARCHAR, rate_per_unit DECIMAL(18,6),
    source_file VARCHAR, source_row INTEGER, loaded_at TIMESTAMPTZ, row_hash VARCHAR
);

CREATE TABLE IF NOT EXISTS sites (
    site_id VARCHAR, jurisdiction VARCHAR, disturbed_acres DOUBLE, construction_start DATE,
    rain_gauge_id VARCHAR, name VARCHAR, address VARCHAR, applicant VARCHAR,
    impaired_water BOOLEAN, single_family BOOLEAN, agricultural BOOLEAN, exempt BOOLEAN,
    final_stabilization DATE,
    source_file VARCHAR, source_row INTEGER, loaded_at TIMESTAMPTZ, row_hash VARCHAR
);

CREATE TABLE IF NOT EXISTS inspections (
    site_id VARCHAR, inspected_at TIMESTAMPTZ, inspected_on DATE, inspector VARCHAR, kind VARCHAR,
    sediment_capacity_lost_pct DOUBLE, notes VARCHAR,
    source_file VARCHAR, source_row INTEGER, loaded_at TIMESTAMPTZ, row_hash VARCHAR
);

CREATE TABLE IF NOT EXISTS rainfall (
    gauge_id VARCHAR, date DATE, precip_in DOUBLE,
    observed_at TIMESTAMPTZ,    -- the day's local midnight for a daily total, else the reading's time
    source_file VARCHAR, source_row INTEGER, loaded_at TIMESTAMPTZ, row_hash VARCHAR
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
