-- Notices of violation, one per kind, recipient and month. The data contract's columns first
-- (kind .. letter), then what the clerk and the pages need: the mailing that counts, whether the
-- notice can be sent and why not, the recipient's mailing address, the day judged. (A warehouse
-- made by an older Outfall gains the columns it lacks: warehouse.upgrade_tables.)
CREATE TABLE IF NOT EXISTS notices (
    kind VARCHAR, recipient_id VARCHAR, period VARCHAR, violations INTEGER, status VARCHAR,
    issued_on DATE, correct_by DATE, letter VARCHAR,
    notice_id VARCHAR,               -- the number printed on the letter
    jurisdiction VARCHAR,
    certified_mail_no VARCHAR,
    correct_within_days INTEGER,
    mailings INTEGER,                -- notices_mailed rows matching
    withdrawn_reason VARCHAR,        -- a draft withdrawn: why (status withdrawn)
    recipient_name VARCHAR,
    mailing_address VARCHAR,         -- the full address, lines joined by '; '
    ready_to_send BOOLEAN,
    not_ready_reason VARCHAR,        -- plain words; NULL when ready
    address_missing VARCHAR,         -- the part of it that is the address (the clerk completes it)
    items_in_letter INTEGER,         -- mailed: the items its letter lists (the record)
    items_not_in_letter INTEGER,     -- mailed: items of its month found after it was mailed
    items_unsupported INTEGER,       -- mailed: items of its letter the data no longer show
    needs_review BOOLEAN,            -- mailed: the data no longer support every item it lists
    review VARCHAR,                  -- mailed: what its mailing's record lacks or gets wrong (contract 8.3)
    first_violation_on DATE,
    last_violation_on DATE,
    as_of DATE,
    rule VARCHAR
);

-- What each notice covers (contract 6.1): one row per item. For a mailed notice, the items its
-- letter lists (as they stood on its issued_on, in_letter true) and any item of its month the data
-- show now but the letter could not (in_letter false); supported is false for an item of the letter
-- the data no longer show (a result corrected below its limit). A violation of a month whose notice the
-- rules do not say how to issue (contract 8.6) is a row too, with notice_status not_drafted and no notice:
-- the pages and the index count every violation, whatever the rules hold.
CREATE TABLE IF NOT EXISTS notice_items (
    kind VARCHAR, recipient_id VARCHAR, period VARCHAR, item VARCHAR, ref VARCHAR, rule VARCHAR,
    parameter VARCHAR,               -- the parameter of a sample, statistic or testing item (else NULL)
    item_on DATE,                    -- the day that puts the item in its month
    known_on DATE,                   -- the first day it was a violation
    resolved_on DATE,                -- the later fact that ended it (an inspection made late, ...)
    description VARCHAR,             -- the item in words, as the letter says it
    in_letter BOOLEAN, supported BOOLEAN, notice_status VARCHAR,
    law VARCHAR                      -- the law it rests on, as the rules name it (law_names, short)
);

-- The findings at the municipality's own sites and premises (contract 8.4: the rules' own_names): no notice
-- of violation or order, one line each on the person's worklist (correct at the town's own site). Each
-- asset that finds them replaces the rows of its own source.
CREATE TABLE IF NOT EXISTS own_findings (
    source VARCHAR,                  -- the asset that found it (notices, grease_trap_status, ...)
    person VARCHAR, kind VARCHAR, subject_id VARCHAR, subject_name VARCHAR,
    owner VARCHAR,                   -- the own name the record gives (landowner, applicant, user)
    municipality VARCHAR,            -- the municipality's name, as its rules give it
    period VARCHAR, item VARCHAR, ref VARCHAR, item_on DATE, known_on DATE,
    resolved_on DATE,                -- the later fact that ended it, if any (an inspection made late)
    description VARCHAR, rule VARCHAR, law VARCHAR,
    finding VARCHAR,                 -- the finding in a plain sentence, as its worklist line says it
    closed_by VARCHAR                -- the record that closes its line once it is corrected: the
                                     -- withdrawn_reason of a notices_mailed row of its kind, subject
                                     -- and month
);

-- The record of every document written for a mailing (contract 6.2). Kept across runs and never
-- rewritten but for the chain: a document dated earlier than one already recorded moves the chain
-- values of the later ones. sha256 is of `file` (the PDF where one was printed, else the HTML).
CREATE TABLE IF NOT EXISTS documents_issued (
    document_id VARCHAR, letter_kind VARCHAR, recipient_id VARCHAR, issued_on DATE,
    file VARCHAR, sha256 VARCHAR, prev_sha256 VARCHAR, chain_sha256 VARCHAR,
    html_file VARCHAR, html_sha256 VARCHAR,
    area VARCHAR,                    -- sewer or stormwater (the letters folder)
    period VARCHAR,                  -- a notice's month (YYYY-MM); NULL for other letters
    certified_mail_no VARCHAR, correct_within_days INTEGER, correct_by DATE,
    ready BOOLEAN, not_ready_reason VARCHAR,   -- as the letter was written
    recorded_at TIMESTAMPTZ
);

-- The items each mailed notice's letter lists, as written (with documents_issued: the record).
CREATE TABLE IF NOT EXISTS notice_items_issued (
    document_id VARCHAR, kind VARCHAR, recipient_id VARCHAR, period VARCHAR, item VARCHAR, ref VARCHAR,
    sub VARCHAR, rule VARCHAR, item_on DATE, known_on DATE, resolved_on DATE, description VARCHAR,
    law VARCHAR                      -- the law it rests on (NULL in a record written before it was kept)
);
