-- The letters written for a mailing (a mailed notice, a ch. 185 letter dated by its notice) that are ready to
-- mail and not yet on record in documents_issued, with what a notice's record keeps of its mailing. A letter
-- that cannot be mailed as it is (an address without its ZIP code) is not a record: it is written again on
-- each run, dated as recorded, until what it lacks is added.
SELECT l.letter, l.letter_kind, l.recipient_id, l.dated, l.ready, l.reason, l.document_id, l.area,
       n.period, n.certified_mail_no, n.correct_within_days, n.correct_by
FROM letters l
LEFT JOIN notices n ON n.notice_id = l.document_id AND l.letter_kind IN ('sewer_notice', 'stormwater_notice')
WHERE l.mailed AND l.ready AND l.dated IS NOT NULL
  AND l.document_id NOT IN (SELECT document_id FROM documents_issued)
ORDER BY l.dated, l.document_id
