-- Every record of a mailed document, in the chain's order (issued_on, then document_id), for outfall verify.
SELECT document_id, letter_kind, issued_on, file, sha256, html_file, html_sha256, prev_sha256, chain_sha256
FROM main.documents_issued
ORDER BY issued_on, document_id
