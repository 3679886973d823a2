-- The draft notices waiting for the clerk's record of their mailing or withdrawal (exports/to_record.xlsx,
-- sheet notices_mailed): the notice's key, and for reading only its recipient, items and letter.
SELECT kind, recipient_id, period, recipient_name, violations, letter, not_ready_reason
FROM notices
WHERE status = 'draft'
ORDER BY kind, recipient_id, period
