-- Tables of the stormwater officer's area (issue 5), created if missing.
-- ensure_schema runs this file after sql/create_tables.sql.

-- Extra input folders (docs/inputs-stormwater.md), loaded by the ingestion
-- engine like the contract's inputs: canonical values plus provenance.

CREATE TABLE IF NOT EXISTS milestones (
    site_id VARCHAR, milestone VARCHAR, occurs_on DATE,
    notified_at TIMESTAMPTZ,        -- NULL: no notice given
    occurs_at TIMESTAMPTZ,          -- the milestone's time when known
    notified_by VARCHAR, notes VARCHAR,
    source_file VARCHAR, source_row INTEGER, loaded_at TIMESTAMPTZ, row_hash VARCHAR
);

CREATE TABLE IF NOT EXISTS contractor_certifications (
    site_id VARCHAR, contractor VARCHAR, first_work_on DATE, title VARCHAR,
    signed_on DATE,                 -- NULL: not signed
    signer_name VARCHAR, firm_address VARCHAR, firm_phone VARCHAR,
    source_file VARCHAR, source_row INTEGER, loaded_at TIMESTAMPTZ, row_hash VARCHAR
);

CREATE TABLE IF NOT EXISTS swppp_approvals (
    site_id VARCHAR, approved_max_disturbed_acres DOUBLE, approved_on DATE, reference VARCHAR,
    source_file VARCHAR, source_row INTEGER, loaded_at TIMESTAMPTZ, row_hash VARCHAR
);

CREATE TABLE IF NOT EXISTS convictions (
    applicant VARCHAR, convicted_on DATE, chapter VARCHAR, site_id VARCHAR, jurisdiction VARCHAR,
    court VARCHAR, docket VARCHAR,
    chapter_number VARCHAR,         -- '267' from 'ch. 267'
    source_file VARCHAR, source_row INTEGER, loaded_at TIMESTAMPTZ, row_hash VARCHAR
);

CREATE TABLE IF NOT EXISTS report_deliveries (
    site_id VARCHAR, report_date DATE, delivered_on DATE, method VARCHAR,
    source_file VARCHAR, source_row INTEGER, loaded_at TIMESTAMPTZ, row_hash VARCHAR
);

-- Outputs. Every user-facing row names its rule (citation from rules/<jurisdiction>.yaml).

CREATE TABLE IF NOT EXISTS site_classification (
    site_id VARCHAR, jurisdiction VARCHAR, name VARCHAR, applicant VARCHAR,
    disturbed_acres DOUBLE, construction_start DATE, final_stabilization DATE,
    land_development_activity BOOLEAN, exempt BOOLEAN,
    condition_a BOOLEAN, condition_b BOOLEAN, condition_c BOOLEAN, conditions VARCHAR,
    inspections_required BOOLEAN,
    inspector VARCHAR,                      -- who must make the inspections
    reports_to_officer_weekly BOOLEAN,      -- Woodbury: reports delivered to the officer weekly
    active BOOLEAN,                         -- under construction on --as-of
    judged_through DATE,                    -- final_stabilization or --as-of, whichever is earlier
    reason VARCHAR, rule VARCHAR
);

CREATE TABLE IF NOT EXISTS swppp_other_findings (
    site_id VARCHAR, jurisdiction VARCHAR,
    finding VARCHAR,        -- disturbance_over_limit, sediment_not_removed, milestone_notice_late,
                            -- contractor_not_certified, report_not_delivered
    subject VARCHAR,        -- the milestone or contractor concerned
    detail VARCHAR,
    trigger_date DATE, due_by DATE, satisfied_on DATE,
    status VARCHAR,         -- late | overdue
    days_late INTEGER,
    rule VARCHAR, section_text VARCHAR
);

CREATE TABLE IF NOT EXISTS swppp_notices (
    notice_id VARCHAR, issued_on DATE, jurisdiction VARCHAR, site_id VARCHAR,
    source_table VARCHAR, finding VARCHAR, subject VARCHAR,
    trigger_date DATE, due_by DATE, satisfied_on DATE, status VARCHAR, days_late INTEGER, violation_on DATE,
    recipient_name VARCHAR, recipient_address VARCHAR,                 -- (1)
    site_description VARCHAR,                                          -- (2)
    nature_of_violation VARCHAR,                                       -- (3)
    remedial_measures VARCHAR, remedial_due_by DATE,                   -- (4)
    penalty_statement VARCHAR,                                         -- (5)
    appeal_statement VARCHAR, appeal_days INTEGER, appeal_filed_with VARCHAR,   -- (6)
    prior_convictions INTEGER, offense_number INTEGER,
    fine_min_usd DECIMAL(12,2), fine_max_usd DECIMAL(12,2), penalty_per VARCHAR,
    violation_periods INTEGER, total_fine_min_usd DECIMAL(12,2), total_fine_max_usd DECIMAL(12,2),
    stop_work_order BOOLEAN, contents_complete BOOLEAN, missing_contents VARCHAR,
    letter_file VARCHAR, rule VARCHAR
);
-- A missed inspection is noticed in its site's monthly notice (table notices, contract 5.1): its
-- issued_on, remedial_due_by and letter_file are that notice's (NULL dates while it is a draft).
ALTER TABLE swppp_notices ADD COLUMN IF NOT EXISTS notice_period VARCHAR;
ALTER TABLE swppp_notices ADD COLUMN IF NOT EXISTS notice_status VARCHAR;

CREATE TABLE IF NOT EXISTS swppp_stop_work_orders (
    order_id VARCHAR, issued_on DATE, jurisdiction VARCHAR, site_id VARCHAR,
    recipient_name VARCHAR, recipient_address VARCHAR, site_description VARCHAR,
    notice_ids VARCHAR, violations INTEGER, basis VARCHAR,
    status VARCHAR,         -- proposed: the officer decides whether to serve it
    letter_file VARCHAR, rule VARCHAR
);

CREATE TABLE IF NOT EXISTS swppp_letters (
    file_name VARCHAR, kind VARCHAR, ref_id VARCHAR, site_id VARCHAR, jurisdiction VARCHAR,
    issued_on DATE, sha256 VARCHAR, html VARCHAR
);

CREATE TABLE IF NOT EXISTS swppp_upcoming (
    site_id VARCHAR, jurisdiction VARCHAR, site_name VARCHAR,
    requirement VARCHAR,    -- weekly | storm | milestone
    trigger_date DATE, due_by DATE, days_until_due INTEGER,
    status VARCHAR,         -- overdue | due_today | due_tomorrow | upcoming
    inspector VARCHAR, detail VARCHAR, rule VARCHAR
);
