-- Mailed documents whose mailing's record lacks something or gets something wrong (contract 8.3: the
-- mailing is a record all the same), one row per document, whatever its kind: what to review, in words
-- naming the column of the notices mailed file.
SELECT letter_kind, recipient_id, recipient_name, document_id, letter, dated, review
FROM letters
WHERE status = 'mailed' AND review IS NOT NULL
ORDER BY dated, document_id
