-- Tables of the billing area (the sewer rate schedule annual sewer bill),
-- besides the contract's sewer_bills (sql/ingest/create_tables.sql). Money is
-- DECIMAL(12,2), rates DECIMAL(18,6), unit counts INTEGER.

-- The input sewer_budget (a district's budget for one component and year) is made
-- from its dataset spec (outfall/ingest/billing.py), not here.
-- One row per billing run that changed a year's register. Append-only; each
-- run_hash is the sha256 of the row's other values except run_at (previous_run_hash
-- included), so the runs form a chain and the same history hashes the same anywhere.
CREATE TABLE IF NOT EXISTS billing_runs (
    run_id INTEGER, year INTEGER, run_at TIMESTAMPTZ,
    rules_jurisdiction VARCHAR, rules_version VARCHAR, rules_sha256 VARCHAR,
    parcels_sha256 VARCHAR,        -- billing columns of the parcels rows used, sorted
    rates_sha256 VARCHAR,          -- sewer_rates rows of the year, sorted
    budget_sha256 VARCHAR,         -- sewer_budget rows of the year, sorted
    inputs_sha256 VARCHAR,         -- the three above and the rules sha256
    rate_source VARCHAR,           -- sewer_rates, sewer_budget or sewer_rates+sewer_budget
    rates_json VARCHAR,            -- the rate used per district and component, with its source
    totals_json VARCHAR,           -- units and amounts per district and component
    parcels_billed INTEGER, total_usd DECIMAL(12,2),
    register_sha256 VARCHAR,       -- sha256 of the register CSV (sewer_register_<year>.csv)
    register_rows INTEGER,
    previous_run_id INTEGER,       -- the year's previous run, compared in bill_changes
    compared_year INTEGER,         -- the previous billed year, compared in bill_changes
    changes_vs_previous_run INTEGER, changes_vs_previous_year INTEGER,
    previous_run_hash VARCHAR, run_hash VARCHAR, rule VARCHAR
);

-- Rates used and totals of each run, per district and component.
CREATE TABLE IF NOT EXISTS billing_run_totals (
    run_id INTEGER, year INTEGER, district VARCHAR, component VARCHAR,
    parcels_charged INTEGER, units INTEGER, rate_per_unit DECIMAL(18,6),
    rate_source VARCHAR,           -- sewer_rates or sewer_budget
    budget_usd DECIMAL(12,2),      -- the budget a derived rate came from
    amount_usd DECIMAL(12,2), rule VARCHAR
);

-- What a run changed, per parcel: against the year's previous run and against
-- the previous billed year. change: added, removed, reclassed, moved_district,
-- units_up, units_down, units_changed, amount_up, amount_down.
CREATE TABLE IF NOT EXISTS bill_changes (
    run_id INTEGER, year INTEGER,
    compared_to VARCHAR,           -- previous_run or previous_year
    compared_run_id INTEGER, compared_year INTEGER,
    parcel_id VARCHAR, change VARCHAR,
    district_before VARCHAR, district_after VARCHAR, class_before VARCHAR, class_after VARCHAR,
    units_bond_change INTEGER, units_om_change INTEGER,
    units_street_lateral_change INTEGER, units_house_lateral_change INTEGER,
    total_before DECIMAL(12,2), total_after DECIMAL(12,2), total_change DECIMAL(12,2),
    detail VARCHAR, rule VARCHAR
);

-- The register summed by billing year, district and property class.
CREATE TABLE IF NOT EXISTS billing_summary (
    year INTEGER, district VARCHAR, property_class VARCHAR, parcels INTEGER,
    units_bond INTEGER, units_om INTEGER, units_street_lateral INTEGER, units_house_lateral INTEGER,
    amount_bond DECIMAL(12,2), amount_om DECIMAL(12,2), amount_street_lateral DECIMAL(12,2),
    amount_house_lateral DECIMAL(12,2), total_usd DECIMAL(12,2),
    run_id INTEGER, rule VARCHAR
);
