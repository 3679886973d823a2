-- The draft documents waiting for the record of their mailing or withdrawal (exports/to_record.xlsx, sheet
-- notices_mailed), every kind whose mailing a notices_mailed row records: the row's key (kind as the row
-- writes it, recipient, month), and for reading only its recipient, items, letter and what the recipient's
-- address lacks (the days to correct are this row's to fill, not a reason it cannot be sent). Then each
-- month of findings at the municipality's own site or premises corrected and not yet recorded as seen to
-- (contract 8.4: no notice goes; a withdrawn_reason and no mailing day closes its worklist lines).
SELECT mailed_as AS kind, recipient_id, period, recipient_name, items AS violations, letter, address_missing
FROM letters
WHERE status = 'draft' AND mailed_as IS NOT NULL
UNION ALL
SELECT kind, subject_id AS recipient_id, period, any_value(subject_name) AS recipient_name,
       count(*) AS violations, NULL AS letter,
       'no notice: the ' || any_value(municipality) || '''s own; give a withdrawn reason (seen to), '
       || 'no mailing day' AS address_missing
FROM own_findings
WHERE source = 'notices' AND closed_by IS NULL AND resolved_on IS NOT NULL
GROUP BY kind, subject_id, period
ORDER BY kind, recipient_id, period
