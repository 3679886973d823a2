-- The items of the notices of one kind ($kind) other than a sample's or a statistic's result (a report
-- late or missing, testing missed, a month of discharging without a permit; an other finding): with the
-- sample and statistic violations the page lists, every violation of the notices (contract 7.5: a
-- recipient's violations are its notice items), each with its notice's month and state.
SELECT
    i.kind, i.recipient_id AS user_id, i.period, i.item, i.ref, i.item_on, i.known_on, i.resolved_on,
    i.description, i.rule, coalesce(n.status, i.notice_status) AS notice_status, n.issued_on, n.notice_id
FROM notice_items AS i
LEFT JOIN notices AS n ON n.kind = i.kind AND n.recipient_id = i.recipient_id AND n.period = i.period
WHERE i.kind = $kind AND i.item NOT IN ('sample', 'daily_max', 'monthly_avg')
ORDER BY i.item_on DESC, i.recipient_id, i.item, i.ref
