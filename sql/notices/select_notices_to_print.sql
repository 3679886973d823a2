-- The mailed notices that are ready to send, in mailing order, for the PDFs.
SELECT kind, recipient_id, period, issued_on, letter
FROM notices
WHERE status = 'mailed' AND ready_to_send
ORDER BY issued_on, kind, recipient_id, period
