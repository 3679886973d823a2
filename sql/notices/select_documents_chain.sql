-- The records of mailed documents with their chain values, for the chain to be set in order: all of them,
-- whatever day the run judges by.
SELECT document_id, issued_on, sha256, prev_sha256, chain_sha256
FROM main.documents_issued
ORDER BY issued_on, document_id
