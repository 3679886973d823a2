-- The draft notices waiting for the clerk's record of their mailing or withdrawal (exports/to_record.xlsx,
-- sheet notices_mailed): the notice's key, and for reading only its recipient, items, letter and what the
-- recipient's address lacks (the days to correct are this row's to fill, not a reason it cannot be sent).
SELECT kind, recipient_id, period, recipient_name, violations, letter, address_missing
FROM notices
WHERE status = 'draft'
ORDER BY kind, recipient_id, period
