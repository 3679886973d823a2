-- Every draft document waiting to be mailed (and recorded) or withdrawn (contracts 7.3, 7.5), one row per
-- draft, whatever its kind: every kind is written through the one helper of documents into `letters`, and the
-- registry of kinds (outfall.document_kinds) says whose line it is and in what words. The recipient, the
-- month, the number, the letter, its items, the day its first item was found (the undated actions are read
-- oldest first by it), what keeps it from the mail besides being a draft, and its jurisdiction (whose rules
-- say how it is served).
SELECT
    letter_kind, recipient_id, recipient_name, period, document_id, letter, items, found_on,
    problems AS not_ready_reason, jurisdiction
FROM letters
WHERE status = 'draft'
ORDER BY found_on, letter_kind, recipient_id, period
