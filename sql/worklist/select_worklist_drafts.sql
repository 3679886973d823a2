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
-- 2. The notices of violation of illicit discharge cases not yet recorded by nov_on.
SELECT
    'illicit_nov' AS kind, l.recipient_id, l.recipient_name, NULL AS period, l.document_id, l.letter,
    1 AS items, d.discovered_on AS found_on, l.reason AS not_ready_reason
FROM letters AS l
LEFT JOIN (
    SELECT case_id, min(discovered_on) AS discovered_on FROM illicit_discharges GROUP BY case_id
) AS d ON d.case_id = l.recipient_id
WHERE l.letter_kind = 'illicit_notice_of_violation' AND NOT coalesce(l.mailed, FALSE)
UNION ALL
-- 3. The grease trap pump-out orders not yet recorded as mailed (notices_mailed kind grease_order, contract
-- 7.3): one item, the pump-out missed, found the day after it was due.
SELECT
    'grease_order' AS kind, g.trap_id AS recipient_id, g.recipient_name, g.period, g.order_id AS document_id,
    g.letter_file AS letter, 1 AS items, g.missed_due + 1 AS found_on, g.not_ready_reason
FROM grease_orders AS g
WHERE g.status = 'draft'
UNION ALL
-- 4. The stop-work orders not yet recorded as mailed (kind stop_work): their items are the violations of
-- the mailed notices they rest on; found the first day the order was warranted (its month).
SELECT
    'stop_work' AS kind, o.site_id AS recipient_id, o.recipient_name, o.period, o.order_id AS document_id,
    o.letter_file AS letter, o.violations AS items,
    coalesce(o.issued_on, strptime(o.period || '-01', '%Y-%m-%d')::DATE) AS found_on, o.not_ready_reason
FROM swppp_stop_work_orders AS o
WHERE o.status = 'draft'
ORDER BY found_on, kind, recipient_id, period
