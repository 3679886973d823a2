-- The draft documents waiting for the record of their mailing or withdrawal (exports/to_record.xlsx, sheet
-- notices_mailed), every kind whose mailing a notices_mailed row records: the row's key (kind as the row
-- writes it, recipient, month), and for reading only its recipient, items, letter and what the recipient's
-- address lacks (the days to correct are this row's to fill, not a reason it cannot be sent).
SELECT mailed_as AS kind, recipient_id, period, recipient_name, items AS violations, letter, address_missing
FROM letters
WHERE status = 'draft' AND mailed_as IS NOT NULL
ORDER BY kind, recipient_id, period
