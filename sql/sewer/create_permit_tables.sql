-- Discharging without a permit (the sewer use law), created if missing.

-- One row per industrial user and local day on which it discharged, that is had samples collected
-- or flow readings of constituent flow above 0 (flow_readings counts those; a probe's readings and
-- zero flow are not a discharge, contract 6.5), while its permit was not in effect (before
-- permit_effective or after permit_expires; both days are in effect: reading permit_in_effect).
CREATE TABLE IF NOT EXISTS discharges_without_permit (
    user_id VARCHAR, name VARCHAR, day DATE,
    finding VARCHAR,                -- permit_expired, permit_not_yet_effective or never_permitted
    samples INTEGER, flow_readings BIGINT,
    permit_no VARCHAR, permit_effective DATE, permit_expires DATE,
    days_outside INTEGER,           -- days from the permit's end (or to its start)
    rule VARCHAR
);

-- Users with samples or flow readings above 0 (as above) whose permit term is not on file (neither
-- date, or no industrial user row at all): not judged (reading permit_term_unknown), listed so the
-- dates can be filled in.
CREATE TABLE IF NOT EXISTS permit_dates_missing (
    user_id VARCHAR, name VARCHAR, permit_no VARCHAR, first_day DATE, last_day DATE, days INTEGER,
    samples INTEGER, flow_readings BIGINT, reason VARCHAR, rule VARCHAR
);
