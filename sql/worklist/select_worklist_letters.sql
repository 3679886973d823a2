-- Letters not yet mailed that cannot be mailed as the records stand (the recipient's address, or
-- another fact the letter needs), one row per letter: a draft notice's own reason (without the words
-- about its being a draft), any other letter's reason. The year's provisional list aside, and a mailed
-- letter, which is a record (contract 7.3).
SELECT recipient_id, recipient_name, notice_id AS document_id, letter, not_ready_reason AS reason
FROM notices
WHERE status = 'draft' AND not_ready_reason IS NOT NULL
UNION ALL
SELECT recipient_id, recipient_name, document_id, letter, reason
FROM letters
WHERE
    NOT ready AND NOT coalesce(mailed, FALSE)
    AND letter_kind NOT IN ('sewer_notice', 'stormwater_notice', 'snc_publication')
ORDER BY recipient_id, document_id
