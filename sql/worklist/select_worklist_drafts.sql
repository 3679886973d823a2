-- Every draft document waiting to be mailed (and recorded) or withdrawn (contracts 7.3, 7.5), one row per
-- draft: the kind of document as its mailing is recorded (notices_mailed.kind, or the illicit discharge
-- case's nov_on), the recipient, the month, the number, the letter, its items, and the day its first
-- item was found (the undated actions are read oldest first by it). Each kind of draft is one branch
-- here, and only here: the worklist reads every draft from this statement.
-- 1. The monthly notices of violation (kind sewer or stormwater), their items from notice_items.
SELECT
    n.kind, n.recipient_id, n.recipient_name, n.period, n.notice_id AS document_id, n.letter,
    count(i.item) AS items,
    coalesce(min(i.known_on), min(i.item_on), n.first_violation_on) AS found_on,
    n.not_ready_reason
FROM notices AS n
LEFT JOIN notice_items AS i
    ON i.kind = n.kind AND i.recipient_id = n.recipient_id AND i.period = n.period
WHERE n.status = 'draft'
GROUP BY n.kind, n.recipient_id, n.recipient_name, n.period, n.notice_id, n.letter, n.first_violation_on,
    n.not_ready_reason
UNION ALL
-- 2. The notices of violation of illicit discharge cases (ch. 185) not yet recorded by nov_on.
SELECT
    'illicit_nov' AS kind, l.recipient_id, l.recipient_name, NULL AS period, l.document_id, l.letter,
    1 AS items, d.discovered_on AS found_on, l.reason AS not_ready_reason
FROM letters AS l
LEFT JOIN (
    SELECT case_id, min(discovered_on) AS discovered_on FROM illicit_discharges GROUP BY case_id
) AS d ON d.case_id = l.recipient_id
WHERE l.letter_kind = 'illicit_notice_of_violation' AND NOT coalesce(l.mailed, FALSE)
-- 3. (The draft orders, kinds grease_order and stop_work, join here once they are drafts: contract 7.3.)
ORDER BY found_on, kind, recipient_id, period
