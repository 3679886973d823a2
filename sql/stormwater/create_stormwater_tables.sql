-- Tables of the stormwater officer's area (assets/stormwater/), created if missing.
-- ensure_schema runs this file after sql/ingest/create_tables.sql.

-- The input folders' tables (docs/inputs-stormwater.md) are made from their
-- dataset specs (outfall/ingest/stormwater.py), not here.

-- Outputs. Every user-facing row names its rule (citation from rules/<jurisdiction>.yaml).

CREATE TABLE IF NOT EXISTS site_classification (
    site_id VARCHAR, jurisdiction VARCHAR, name VARCHAR, applicant VARCHAR,
    disturbed_acres DOUBLE, construction_start DATE, final_stabilization DATE,
    land_development_activity BOOLEAN, exempt BOOLEAN,
    condition_a BOOLEAN, condition_b BOOLEAN, condition_c BOOLEAN, conditions VARCHAR,
    inspections_required BOOLEAN,
    inspector VARCHAR,                      -- who must make the inspections
    reports_to_officer_weekly BOOLEAN,      -- reports delivered to the officer weekly
                                            -- (where the rules ask for it)
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
    issuer VARCHAR,                                                    -- who issues the notice
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
    status VARCHAR,         -- draft (the officer decides whether to serve it), mailed, or withdrawn
    letter_file VARCHAR, rule VARCHAR,
    ready_to_mail BOOLEAN, not_ready_reason VARCHAR,   -- the letter's state (the one address rule of letters)
    period VARCHAR,         -- YYYY-MM: the month it was first warranted, which numbers it (notices_mailed)
    certified_mail_no VARCHAR
);

CREATE TABLE IF NOT EXISTS swppp_letters (
    file_name VARCHAR, kind VARCHAR, ref_id VARCHAR, site_id VARCHAR, jurisdiction VARCHAR,
    issued_on DATE, sha256 VARCHAR, html VARCHAR
);

-- The inspection reports the stormwater officer is waiting for (written by swppp_other_findings): each
-- recorded inspection (but the officer's own) of a site whose reports go to the officer weekly creates the
-- applicant's duty to deliver its report; listed while the period to deliver it has not passed and no
-- report_deliveries row records it (after that, a report_not_delivered finding). report_date is the
-- inspection's day.
CREATE TABLE IF NOT EXISTS swppp_reports_due (
    site_id VARCHAR, jurisdiction VARCHAR, site_name VARCHAR, report_date DATE, due_by DATE,
    status VARCHAR,         -- due_today | due_tomorrow | upcoming
    rule VARCHAR
);

CREATE TABLE IF NOT EXISTS swppp_upcoming (
    site_id VARCHAR, jurisdiction VARCHAR, site_name VARCHAR,
    requirement VARCHAR,    -- weekly | storm | milestone
    trigger_date DATE, due_by DATE, days_until_due INTEGER,
    status VARCHAR,         -- overdue | due_today | due_tomorrow | upcoming
    inspector VARCHAR, detail VARCHAR, rule VARCHAR,
    then_due VARCHAR        -- the duty recording it creates: its report to the officer (null: none)
);
