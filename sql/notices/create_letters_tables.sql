-- Every letter a run wrote (contract 6.5), whatever asset wrote it: whether it is ready to mail and, if
-- not, what is missing in words. A letter that is not ready is in no batch to print or mail.
CREATE TABLE IF NOT EXISTS letters (
    letter VARCHAR,                  -- its file, relative to the dashboards folder
    letter_kind VARCHAR,             -- sewer_notice, stormwater_notice, grease_order, stop_work_order,
                                     -- illicit_notice_of_violation, illicit_cost_notice, snc_publication
    recipient_id VARCHAR, dated DATE, ready BOOLEAN, reason VARCHAR,
    document_id VARCHAR,             -- the number printed on it
    recipient_name VARCHAR,
    area VARCHAR,                    -- sewer or stormwater (its folder)
    mailed BOOLEAN,                  -- written for a mailing: a record (documents_issued), never rewritten
    recorded BOOLEAN                 -- already in documents_issued
);

-- Recipients whose ZIP code differs between two input files (contract 6.5), one row per pair.
CREATE TABLE IF NOT EXISTS address_conflicts (
    recipient_name VARCHAR, recipient_id VARCHAR,
    source VARCHAR, zip VARCHAR, other_source VARCHAR, other_zip VARCHAR, detail VARCHAR
);
