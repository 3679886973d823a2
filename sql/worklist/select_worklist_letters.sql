-- Letters not yet mailed that cannot be mailed as the records stand (the recipient's address, or
-- another fact the letter needs), one row per letter: of a draft notice, only what its recipient's
-- address lacks (the days to correct and the rest are given when it is mailed, by the person who mails
-- it: the draft's own line says so); any other letter's reason. The year's provisional list aside, a
-- draft order (its own line, mail or withdraw, names what it lacks), and a mailed letter, which is a
-- record (contract 7.3).
SELECT recipient_id, recipient_name, notice_id AS document_id, letter, address_missing AS reason
FROM notices
WHERE status = 'draft' AND address_missing IS NOT NULL
UNION ALL
SELECT recipient_id, recipient_name, document_id, letter, reason
FROM letters
WHERE
    NOT ready AND NOT coalesce(mailed, FALSE)
    AND letter_kind NOT IN (
        'sewer_notice', 'stormwater_notice', 'snc_publication', 'stop_work_order', 'grease_order'
    )
ORDER BY recipient_id, document_id
