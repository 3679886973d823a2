-- The mailed notices already on record (documents_issued), for the notices asset: their letters are
-- never written again, and their mailing as recorded stands.
SELECT document_id, area AS kind, recipient_id, period, issued_on, file, html_file, certified_mail_no,
       correct_within_days, correct_by, ready, not_ready_reason
FROM documents_issued
WHERE letter_kind IN ('sewer_notice', 'stormwater_notice')
ORDER BY document_id
