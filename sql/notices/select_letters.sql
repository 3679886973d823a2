-- Every letter written this run (written by the assets of their kinds through the one helper of documents),
-- for the letters asset's counts.
SELECT letter, letter_kind, recipient_id, dated, ready, reason, document_id, recipient_name, area, mailed,
       recorded, status
FROM letters
ORDER BY area, letter
