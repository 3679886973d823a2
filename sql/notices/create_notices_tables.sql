-- Notices of violation, one per kind, recipient and month. The data contract's columns first
-- (kind .. letter), then what the clerk and the pages need: the mailing that counts, whether the
-- notice can be sent and why not, the recipient's mailing address, the day judged. (A warehouse
-- made by an older Outfall gains the columns it lacks: warehouse.upgrade_tables.)
CREATE TABLE IF NOT EXISTS notices (
    kind VARCHAR, recipient_id VARCHAR, period VARCHAR, violations INTEGER, status VARCHAR,
    issued_on DATE, correct_by DATE, letter VARCHAR,
    jurisdiction VARCHAR,
    certified_mail_no VARCHAR,
    correct_within_days INTEGER,
    mailings INTEGER,                -- notices_mailed rows matching
    recipient_name VARCHAR,
    mailing_address VARCHAR,         -- the full address, lines joined by '; '
    ready_to_send BOOLEAN,
    not_ready_reason VARCHAR,        -- plain words; NULL when ready
    first_violation_on DATE,
    last_violation_on DATE,
    as_of DATE,
    rule VARCHAR
);
