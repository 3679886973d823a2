-- The letters written for a mailing (a mailed notice or order, an illicit discharge letter dated by its
-- notice) not yet on record in documents_issued, with what a notice's or an order's record keeps of its
-- mailing. Every document recorded as mailed is recorded, ready or not (contract 7.3): a letter that was
-- not ready is kept with ready false and its reason, and is never written again.
WITH mailings AS (
    SELECT notice_id AS document_id, period, certified_mail_no, correct_within_days, correct_by
    FROM notices WHERE status = 'mailed'
    UNION ALL
    SELECT order_id, period, certified_mail_no, correct_within_days, comply_by
    FROM grease_orders WHERE status = 'mailed'
    UNION ALL
    SELECT order_id, period, certified_mail_no, NULL, NULL
    FROM swppp_stop_work_orders WHERE status = 'mailed'
)
SELECT l.letter, l.letter_kind, l.recipient_id, l.dated, l.ready, l.reason, l.document_id, l.area,
       m.period, m.certified_mail_no, m.correct_within_days, m.correct_by
FROM letters l
LEFT JOIN mailings m ON m.document_id = l.document_id
WHERE l.mailed AND l.dated IS NOT NULL
  AND l.document_id NOT IN (SELECT document_id FROM main.documents_issued)
ORDER BY l.dated, l.document_id
