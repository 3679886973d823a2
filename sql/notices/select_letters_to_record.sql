-- Every mailing of a document not yet on record in documents_issued (contract 8.3: each day a document is
-- recorded as mailed is a record of its own, <number>/2 for the second), with what its record keeps of the
-- mailing. Every document recorded as mailed is recorded, ready or not (contract 7.3): a letter that was
-- not ready is kept with ready false and its reason, and is never written again. The period to correct
-- counts from the first mailing only.
SELECT l.letter, l.letter_kind, l.recipient_id, m.mailed_on AS dated, l.ready, l.reason,
       m.record_id AS document_id, l.area, l.period, m.certified_mail_no, m.correct_within_days,
       CASE WHEN m.mailing = 1 THEN l.correct_by END AS correct_by, m.mailing
FROM letter_mailings AS m
INNER JOIN letters AS l ON l.letter = m.letter AND l.document_id = m.document_id
WHERE l.mailed AND m.mailed_on IS NOT NULL
  AND m.record_id NOT IN (SELECT document_id FROM main.documents_issued)
ORDER BY m.mailed_on, m.record_id
