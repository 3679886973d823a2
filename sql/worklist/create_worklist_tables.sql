-- What each person must do next, and by when (contract 6.4): one row per open action. The contract's
-- columns first (person .. ref), then what the pages show: the subject's name, the days left, a link to
-- the letter or record it concerns (relative to the dashboards folder), and the facts behind it.
CREATE TABLE IF NOT EXISTS worklist (
    person VARCHAR,                  -- superintendent, stormwater_officer or clerk
    action VARCHAR,                  -- in plain words
    subject_id VARCHAR,              -- user, site, case, parcel, notice or file
    due DATE,                        -- NULL when the law sets none
    status VARCHAR,                  -- overdue, due (within the week), undated (no date in law), upcoming
    source VARCHAR,                  -- the table it comes from
    ref VARCHAR,                     -- that row's key, as text
    subject_name VARCHAR,
    days_left INTEGER,               -- due - the day judged (negative: overdue); NULL without a due date
    link VARCHAR,
    detail VARCHAR,
    as_of DATE,
    found_on DATE,                   -- the day its first item was found: the undated are read oldest first
    first BOOLEAN                    -- a row of to_record.xlsx filled against its sheet's rules: listed first
);
