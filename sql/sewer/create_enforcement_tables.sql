-- Tables of the sewer administrator's enforcement (assets/sewer/enforcement.py),
-- created if missing. ensure_schema runs this file after sql/ingest/create_tables.sql,
-- where the snc_determinations table of the data contract is created.

-- The input folders' tables (docs/inputs-sewer.md) are made from their dataset
-- specs (outfall/ingest/sewer.py), not here.

-- Outputs. Every user-facing row names its rule (citation from the town's rules file).

-- One notice of violation per sample result that breaks a per-sample limit
-- (the sewer use law's enforcement: the notice, its period to correct),
-- with its follow-up as of --as-of and the sewer use law's penalty.
CREATE TABLE IF NOT EXISTS sewer_notices (
    notice_id VARCHAR, user_id VARCHAR, name VARCHAR, address VARCHAR, permit_no VARCHAR,
    sample_id VARCHAR, parameter VARCHAR, collected_at TIMESTAMPTZ, collected_date DATE,
    sample_type VARCHAR, value DOUBLE, unit VARCHAR, limit_value DOUBLE, limit_type VARCHAR,
    limit_source VARCHAR, violation_rule VARCHAR,
    issued_on DATE, mailing VARCHAR, correction_days INTEGER, correct_by DATE,
    next_sample_id VARCHAR, next_collected_date DATE, next_value DOUBLE, next_outcome VARCHAR,
    corrected_on DATE,              -- the first later compliant result (by --as-of)
    status VARCHAR,                 -- corrected | corrected_late | not_corrected | pending | overdue
    corrected_in_time BOOLEAN,      -- NULL while pending
    violation_days INTEGER,         -- penalty days: from the day after correct_by, uncorrected
                                    -- (0 for a draft)
    fine_max_usd DECIMAL(12,2), civil_penalty_max_usd DECIMAL(12,2), max_penalty_usd DECIMAL(12,2),
    as_of DATE, letter_file VARCHAR, rule VARCHAR, penalty_rule VARCHAR
);
-- Each violation is followed up from the monthly notice that lists it (table notices, contract 5.1):
-- issued_on and correct_by are that notice's (NULL while it is a draft, status 'draft');
-- letter_file is its letter, relative to the dashboards folder.
ALTER TABLE sewer_notices ADD COLUMN IF NOT EXISTS notice_period VARCHAR;
ALTER TABLE sewer_notices ADD COLUMN IF NOT EXISTS notice_status VARCHAR;
ALTER TABLE sewer_notices ADD COLUMN IF NOT EXISTS follow_up VARCHAR;

-- The deadlines engine: one row per obligation.
CREATE TABLE IF NOT EXISTS obligations (
    user_id VARCHAR, obligation VARCHAR, rule VARCHAR, trigger_date DATE, due DATE,
    satisfied_on DATE,              -- NULL: not satisfied by --as-of
    status VARCHAR,                 -- met | late | open | overdue
    days_late INTEGER, reference VARCHAR, detail VARCHAR, as_of DATE,
    law VARCHAR,                    -- the law the duty rests on, as the rules name it (law_names, short)
    adopted BOOLEAN,                -- a duty of the town's own code, or of another law the rules adopt:
                                    -- only such a duty is a violation in a notice (else the user's record)
    adopted_by VARCHAR              -- the local act that adopts another law's duty (NULL: none)
);

-- SNC arithmetic of every user, parameter and six-month period (met or not).
CREATE TABLE IF NOT EXISTS snc_evaluations (
    user_id VARCHAR, period_start DATE, period_end DATE, parameter VARCHAR,
    measurements INTEGER, violations INTEGER, trc_results INTEGER,   -- trc_results NULL: never judged by TRC
    chronic_pct_needed DOUBLE, trc_pct_needed DOUBLE, trc_factor DOUBLE,
    chronic BOOLEAN, trc BOOLEAN, period_closed BOOLEAN, rule VARCHAR
);

-- The annual list of users in significant noncompliance, one row per year covered and user.
CREATE TABLE IF NOT EXISTS snc_publication (
    year INTEGER, user_id VARCHAR, name VARCHAR, address VARCHAR, permit_no VARCHAR,
    criteria VARCHAR, parameters VARCHAR, periods VARCHAR, determinations INTEGER,
    year_closed BOOLEAN, letter_file VARCHAR, rule VARCHAR
);

-- Surcharges for wastes stronger than the limits, per user, month and parameter.
CREATE TABLE IF NOT EXISTS surcharges (
    user_id VARCHAR, name VARCHAR, period_start DATE, period_end DATE, parameter VARCHAR,
    samples INTEGER, nondetects INTEGER, sample_type VARCHAR, concentration_mgl DOUBLE,
    limit_mgl DOUBLE, excess_mgl DOUBLE,
    flow_mg DOUBLE, flow_source VARCHAR,   -- meter | permit | none
    flow_readings INTEGER, flow_mean_gpm DOUBLE,
    pounds DOUBLE, rate_usd_per_lb DECIMAL(12,4), amount_usd DECIMAL(12,2),
    period_closed BOOLEAN, rule VARCHAR
);

-- The samples each surcharge used.
CREATE TABLE IF NOT EXISTS surcharge_samples (
    user_id VARCHAR, period_start DATE, parameter VARCHAR, sample_id VARCHAR, collected_at TIMESTAMPTZ,
    collected_date DATE, sample_type VARCHAR, value DOUBLE, nondetect BOOLEAN, value_used DOUBLE,
    unit VARCHAR, rule VARCHAR
);

-- Grease interceptors: the frequency in force, the last pump-out, the next due.
CREATE TABLE IF NOT EXISTS grease_trap_status (
    trap_id VARCHAR, user_id VARCHAR, parcel_id VARCHAR, establishment VARCHAR, address VARCHAR,
    pumpout_interval_days INTEGER, set_on DATE, pumpouts INTEGER, last_pumped_on DATE, next_due DATE,
    status VARCHAR,                 -- current | overdue
    days_overdue INTEGER, late_pumpouts INTEGER, pumpouts_without_invoice INTEGER,
    as_of DATE, rule VARCHAR,
    owner_name VARCHAR,             -- the owner an order goes to (the trap's owner_name, else its parcel's)
    own_owner VARCHAR               -- the owner, when it is the town's own (rules own_names): no order is
                                    -- drafted, the worklist has the line (contract 8.4)
);

-- Orders directing compliance, one per trap whose pump-out is overdue.
CREATE TABLE IF NOT EXISTS grease_orders (
    order_id VARCHAR, trap_id VARCHAR, user_id VARCHAR, parcel_id VARCHAR, establishment VARCHAR,
    address VARCHAR, pumpout_interval_days INTEGER, last_pumped_on DATE, missed_due DATE,
    days_overdue INTEGER, issued_on DATE, comply_by DATE, directive VARCHAR, letter_file VARCHAR,
    rule VARCHAR,
    recipient_name VARCHAR, mailing_address VARCHAR,   -- who the order goes to, the address lines
                                                       -- joined by '; '
    ready_to_mail BOOLEAN, not_ready_reason VARCHAR,   -- the letter's state (the one address rule of letters)
    status VARCHAR,                                    -- draft, mailed or withdrawn (contract 7.3)
    period VARCHAR,                                    -- YYYY-MM of missed_due: the order's month
                                                       -- (notices_mailed: kind grease_order, trap_id)
    certified_mail_no VARCHAR, correct_within_days INTEGER,            -- the days the administrator gave
    owner_from VARCHAR,                                -- trap (its owner_name) or parcel (its owner); NULL:
                                                       -- no owner on file (the order is not ready)
    review VARCHAR                                     -- a mailed order: what its mailing's row lacks
);

-- Contract 5.2: which set of measurements a determination was made on (sample, daily_max,
-- monthly_avg; NULL for late_report), on the contract's table and on every period's counts.
ALTER TABLE snc_determinations ADD COLUMN IF NOT EXISTS basis VARCHAR;
ALTER TABLE snc_evaluations ADD COLUMN IF NOT EXISTS basis VARCHAR;
