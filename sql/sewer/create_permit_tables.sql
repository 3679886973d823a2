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

-- Every permit of every industrial user (contract 8.2), as the run judges them: the rows of the permits
-- folder, the permit columns of industrial_users, and the permits an earlier load of industrial_users gave
-- that the inputs no longer give (a users file edited in place: given_by earlier_load, in_inputs false),
-- which stay in force for their own days. A permit is known by its user and number; a permits row with
-- a withdrawn_reason removes the permit of its number wherever it was given (status withdrawn). A user
-- holds a permit on a day when any of its permits in force has it in effect (both days included). A
-- permit whose day of issue (else its first day) is after the day judged is not yet a fact: not a row.
-- is_current marks the one a page or letter names (of those in force, in effect on the day judged first,
-- then the latest to expire).
CREATE TABLE IF NOT EXISTS user_permits (
    user_id VARCHAR, name VARCHAR, permit_no VARCHAR, effective_on DATE, expires_on DATE, issued_on DATE,
    status VARCHAR,                 -- in_force or withdrawn
    withdrawn_reason VARCHAR,
    given_by VARCHAR,               -- permits, industrial_users or earlier_load
    in_inputs BOOLEAN,              -- false: no input gives it any longer (to confirm or withdraw)
    is_current BOOLEAN,
    source_file VARCHAR, source_row BIGINT, as_of DATE, rule VARCHAR
);
