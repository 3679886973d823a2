-- Every letter a run wrote (contract 6.5), whatever asset wrote it, through the one helper of documents
-- (outfall.documents; the kinds: outfall.document_kinds): whether it is ready to mail and, if not, what is
-- missing in words. A letter that is not ready is in no batch to print or mail. Each asset replaces the rows
-- of its own kinds; the asset `letters` completes them (recorded, address_conflicts).
CREATE TABLE IF NOT EXISTS letters (
    letter VARCHAR,                  -- its file, relative to the dashboards folder
    letter_kind VARCHAR,             -- a kind of the registry: sewer_notice, stormwater_notice, grease_order,
                                     -- stop_work_order, illicit_notice_of_violation, illicit_cost_notice,
                                     -- snc_publication
    recipient_id VARCHAR, dated DATE, ready BOOLEAN, reason VARCHAR,
    document_id VARCHAR,             -- the number printed on it
    recipient_name VARCHAR,
    area VARCHAR,                    -- sewer or stormwater (its folder)
    mailed BOOLEAN,                  -- written for a mailing: a record (documents_issued), never rewritten
    recorded BOOLEAN,                -- already in documents_issued
    status VARCHAR,                  -- draft, mailed, withdrawn, for_publication
    period VARCHAR,                  -- the month its mailing's row names (YYYY-MM), where it has one
    mailed_as VARCHAR,               -- the kind of a notices_mailed row that records its mailing
    items INTEGER,                   -- what it lists (a notice's violations; 1 for others)
    found_on DATE,                   -- the day its first item was found (the worklist reads drafts by it)
    problems VARCHAR,                -- what keeps it from the mail besides being a draft
    address_missing VARCHAR,         -- what its recipient's address lacks
    review VARCHAR,                  -- a mailed document: what its mailing's record lacks or gets wrong
    certified_mail_no VARCHAR, correct_within_days INTEGER, correct_by DATE,
    jurisdiction VARCHAR,
    mailings INTEGER                 -- the days it is recorded as mailed
);

-- Each mailing of a document (contract 8.3): the first is its number, each later day its own record
-- (<number>/2, ...), all of one letter; documents_issued records each.
CREATE TABLE IF NOT EXISTS letter_mailings (
    letter VARCHAR, letter_kind VARCHAR, document_id VARCHAR,
    mailing INTEGER,                 -- 1 for the first day it was mailed, 2 for the next ...
    record_id VARCHAR,               -- its row's document_id in documents_issued
    mailed_on DATE, certified_mail_no VARCHAR, correct_within_days INTEGER
);

-- Recipients whose ZIP code differs between two input files (contract 6.5), one row per pair.
CREATE TABLE IF NOT EXISTS address_conflicts (
    recipient_name VARCHAR, recipient_id VARCHAR,
    source VARCHAR, zip VARCHAR, other_source VARCHAR, other_zip VARCHAR, detail VARCHAR,
    known_on DATE                    -- the day both files gave their ZIP codes (NULL: standing records): a
                                     -- letter dated before it is not held by it (contract 8.1)
);
