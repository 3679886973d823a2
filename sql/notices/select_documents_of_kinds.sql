-- The documents of some kinds ($kinds) already on record (documents_issued): their letters are never written
-- again, and their mailing as recorded stands.
SELECT document_id, letter_kind, recipient_id, period, issued_on, file, html_file, certified_mail_no,
       correct_within_days, correct_by, ready, not_ready_reason, area
FROM documents_issued
WHERE list_contains($kinds, letter_kind)
ORDER BY document_id
