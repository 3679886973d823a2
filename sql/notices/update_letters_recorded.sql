-- Each letter's `recorded` as documents_issued now stands on the day the run judges (run in the
-- transaction that records the new documents): the letters table agrees with the record on the very run
-- that records them.
UPDATE letters
SET recorded = document_id IN (SELECT document_id FROM documents_issued)
WHERE recorded IS DISTINCT FROM (document_id IN (SELECT document_id FROM documents_issued))
