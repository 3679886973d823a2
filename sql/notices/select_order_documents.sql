-- The orders already on record (documents_issued) of one kind ($letter_kind: grease_order or
-- stop_work_order): their letters are never written again, and their mailing as recorded stands.
SELECT document_id, letter_kind, recipient_id, period, issued_on, file, html_file, certified_mail_no,
       correct_within_days, correct_by, ready, not_ready_reason
FROM documents_issued
WHERE letter_kind = $letter_kind
ORDER BY document_id
