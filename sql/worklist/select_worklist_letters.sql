-- Letters not yet mailed whose recipient's address lacks something (the clerk completes it), one row per
-- letter, whatever its kind. A mailed letter is a record (contract 7.3): nothing to complete. A ZIP code two
-- files give differently is its own line (select_worklist_addresses).
SELECT recipient_id, recipient_name, document_id, letter, address_missing AS reason
FROM letters
WHERE NOT coalesce(mailed, FALSE) AND address_missing IS NOT NULL
ORDER BY recipient_id, document_id
