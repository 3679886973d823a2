-- Letters other than notices that cannot be mailed as they are (a notice's own state is in notices), the
-- provisional list of a year not yet ended aside.
SELECT letter, letter_kind, recipient_id, recipient_name, document_id, reason
FROM letters
WHERE NOT ready AND letter_kind NOT IN ('sewer_notice', 'stormwater_notice', 'snc_publication')
ORDER BY letter
