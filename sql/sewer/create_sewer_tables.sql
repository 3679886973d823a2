-- Tables of the sewer administrator's compliance core (assets/sewer/compliance.py), beside
-- the contract's discharge_violations, slug_events and infiltration_results
-- (sql/ingest/create_tables.sql). Created if missing (idempotent).

-- The jurisdiction's per-sample and statistic limits as applied (rules file:
-- discharge_limits and the limits adopted under table_7_1), one row per limit entry.
-- excursion_minutes: a limit the law breaks only by an excursion longer than so
-- many minutes (a pH time rule), else NULL.
CREATE TABLE IF NOT EXISTS discharge_limit_defaults (
    parameter VARCHAR, limit_type VARCHAR, value DOUBLE, unit VARCHAR,
    effective_from DATE, effective_to DATE, source VARCHAR, rule VARCHAR,
    rules_version VARCHAR, excursion_minutes DOUBLE
);

-- Every lab result compared with every per-sample limit (max, min) that
-- applies to it: compliant, violation or inconclusive.
CREATE TABLE IF NOT EXISTS discharge_evaluations (
    user_id VARCHAR, sample_id VARCHAR, parameter VARCHAR, collected_at TIMESTAMPTZ,
    collected_date DATE, sample_type VARCHAR, value DOUBLE, nondetect BOOLEAN, qualifier VARCHAR,
    unit VARCHAR, limit_value DOUBLE, limit_type VARCHAR, limit_source VARCHAR, rule VARCHAR,
    outcome VARCHAR, exceedance_ratio DOUBLE, excursion_minutes DOUBLE
);

-- Non-detects whose detection value is above a maximum limit (or, against a
-- minimum, above it): neither compliant nor a violation.
CREATE TABLE IF NOT EXISTS inconclusive_results (
    user_id VARCHAR, sample_id VARCHAR, parameter VARCHAR, collected_at TIMESTAMPTZ,
    detection_value DOUBLE, qualifier VARCHAR, unit VARCHAR, limit_value DOUBLE, limit_type VARCHAR,
    limit_source VARCHAR, reason VARCHAR, rule VARCHAR
);

-- Results of a parameter with no limit of any type in effect: "no limit defined".
CREATE TABLE IF NOT EXISTS unlimited_results (
    user_id VARCHAR, sample_id VARCHAR, parameter VARCHAR, collected_at TIMESTAMPTZ,
    collected_date DATE, sample_type VARCHAR, value DOUBLE, nondetect BOOLEAN, unit VARCHAR,
    reason VARCHAR, rule VARCHAR
);

-- Non-detect averaging policy as applied, per parameter ('*' = default) and
-- dated version of the rules (the policy in effect on a result's day applies).
CREATE TABLE IF NOT EXISTS nondetect_policies (
    parameter VARCHAR, policy VARCHAR, rule VARCHAR
);
ALTER TABLE nondetect_policies ADD COLUMN IF NOT EXISTS effective_from DATE;
ALTER TABLE nondetect_policies ADD COLUMN IF NOT EXISTS effective_to DATE;

-- The dated rules the compliance SQL joins each row to, by the row's own day
-- (outfall/rules/tables.py): effective_to 9999-12-31 = still in effect.
CREATE TABLE IF NOT EXISTS sewer_compliance_rules (
    effective_from DATE, effective_to DATE, permit_limit_citation VARCHAR, no_limit_citation VARCHAR,
    inconclusive_citation VARCHAR, statistic_citation VARCHAR, rule VARCHAR
);
CREATE TABLE IF NOT EXISTS slug_rules (
    effective_from DATE, effective_to DATE, ratio DOUBLE, min_duration_min DOUBLE, baseline_days INTEGER,
    min_baseline_days INTEGER, gap_factor DOUBLE, rule VARCHAR
);
CREATE TABLE IF NOT EXISTS infiltration_rules (
    effective_from DATE, effective_to DATE, gal_per_inch_mile_day DOUBLE, feet_per_mile DOUBLE, rule VARCHAR
);

-- Daily-maximum and monthly-average limits: every period judged.
CREATE TABLE IF NOT EXISTS statistic_results (
    user_id VARCHAR, parameter VARCHAR, statistic VARCHAR, period_start DATE, period_end DATE,
    value DOUBLE, limit_value DOUBLE, unit VARCHAR, samples INTEGER, nondetects INTEGER,
    nondetect_policy VARCHAR, limit_source VARCHAR, passes BOOLEAN, exceedance_ratio DOUBLE,
    rule VARCHAR
);

-- The periods that break their limit (strictly above it).
CREATE TABLE IF NOT EXISTS statistic_violations (
    user_id VARCHAR, parameter VARCHAR, statistic VARCHAR, period_start DATE, period_end DATE,
    value DOUBLE, limit_value DOUBLE, unit VARCHAR, samples INTEGER, nondetects INTEGER,
    nondetect_policy VARCHAR, limit_source VARCHAR, exceedance_ratio DOUBLE, rule VARCHAR
);

-- Slug detection state, kept between runs so that appended days are judged
-- without re-reading the whole history: per user, constituent and local day
-- the daily mean, the day's reading spacing and the baseline / threshold.
CREATE TABLE IF NOT EXISTS slug_daily_stats (
    user_id VARCHAR, constituent VARCHAR, local_day DATE, readings BIGINT, sum_value DOUBLE,
    mean_value DOUBLE, max_value DOUBLE, first_ts TIMESTAMPTZ, last_ts TIMESTAMPTZ,
    spacing_s DOUBLE, prior_days INTEGER, baseline DOUBLE, baseline_source VARCHAR, threshold DOUBLE
);

-- The usual reading interval of each user and constituent (seconds).
CREATE TABLE IF NOT EXISTS slug_intervals (
    user_id VARCHAR, constituent VARCHAR, interval_s DOUBLE, days INTEGER
);

-- What the last slug detection saw of the flow table (for incremental runs):
-- its rows, newest reading, newest load time (loaded_at, as in the input
-- tables) and the fingerprint of the rules and permit flows it used.
CREATE TABLE IF NOT EXISTS slug_state (
    flow_rows BIGINT, flow_max_ts TIMESTAMPTZ, loaded_at TIMESTAMPTZ,
    fingerprint VARCHAR, mode VARCHAR, detected_from DATE
);

-- The readings beside each slug event, for the sewer page (outfall/slug_context.py): one row per
-- slug and reading from pad_hours before the slug to pad_hours after it.
CREATE TABLE IF NOT EXISTS _slug_event_readings (
    user_id VARCHAR, constituent VARCHAR, start_at TIMESTAMPTZ, end_at TIMESTAMPTZ, pad_hours INTEGER,
    ts TIMESTAMPTZ, value DOUBLE, inside BOOLEAN
);

-- Users and constituents with days whose readings could not be judged.
CREATE TABLE IF NOT EXISTS slug_baseline_gaps (
    user_id VARCHAR, constituent VARCHAR, days_lacking INTEGER, first_day DATE, last_day DATE,
    readings_not_judged BIGINT, reason VARCHAR, rule VARCHAR
);

-- Infiltration tests that fail: the finding, with the section of the law.
CREATE TABLE IF NOT EXISTS infiltration_findings (
    section_id VARCHAR, test_date DATE, measured_gpd DOUBLE, allowable_gpd DOUBLE,
    excess_gpd DOUBLE, gpimd DOUBLE, finding VARCHAR, rule VARCHAR
);

-- Per industrial user and month (local): what was sampled and found.
CREATE TABLE IF NOT EXISTS compliance_summary (
    user_id VARCHAR, name VARCHAR, month DATE, samples_taken INTEGER, results INTEGER,
    parameters_evaluated INTEGER, violations INTEGER, statistic_violations INTEGER,
    inconclusive INTEGER, unlimited_results INTEGER, slugs INTEGER, flow_readings BIGINT,
    worst_exceedance_ratio DOUBLE, worst_parameter VARCHAR, violations_year_to_date INTEGER,
    permit_no VARCHAR, permit_expires DATE, days_left INTEGER, permit_expiry_flag BOOLEAN,
    permit_status VARCHAR, as_of DATE, rule VARCHAR
);

-- Every limit that may apply to a lab result, of every type: a user's permit
-- limits (special agreements, priority 1) and the jurisdiction's defaults
-- (priority 2). `basis_rule` is the permit's basis text with its permit number (the user's permit in force
-- on the limit's first day, else its current one: user_permits, contract 8.2), NULL when the permit row
-- gives no basis (the reader supplies the citation).
-- Read by insert_discharge_evaluations.sql and insert_statistic_results.sql.
CREATE OR REPLACE VIEW applicable_limit_sources AS
WITH permits AS (
    SELECT pl.user_id, pl.parameter, pl.limit_type, pl.effective_from,
           arg_max(
               up.permit_no,
               (pl.effective_from IS NOT NULL
                AND pl.effective_from BETWEEN coalesce(up.effective_on, DATE '0001-01-01')
                                          AND coalesce(up.expires_on, DATE '9999-12-31'),
                up.is_current)
           ) AS permit_no
    FROM permit_limits AS pl JOIN user_permits AS up ON up.user_id = pl.user_id AND up.status = 'in_force'
    GROUP BY ALL
)
SELECT pl.user_id, lower(pl.parameter) AS pkey, pl.limit_type, pl.value AS limit_value,
       pl.effective_from, pl.effective_to, 1 AS priority, 'permit' AS limit_source,
       nullif(trim(pl.basis), '') AS basis, p.permit_no, CAST(NULL AS DOUBLE) AS excursion_minutes
FROM permit_limits pl LEFT JOIN permits p
    ON p.user_id = pl.user_id AND p.parameter = pl.parameter AND p.limit_type = pl.limit_type
       AND p.effective_from IS NOT DISTINCT FROM pl.effective_from
WHERE pl.value IS NOT NULL
UNION ALL
SELECT NULL, lower(parameter), limit_type, value, effective_from, effective_to, 2, source, rule, NULL,
       excursion_minutes
FROM discharge_limit_defaults;

-- The compliance summary also counts the month's days of discharge without a permit
-- (discharges_without_permit, sql/sewer/create_permit_tables.sql).
ALTER TABLE compliance_summary ADD COLUMN IF NOT EXISTS days_without_permit INTEGER;
