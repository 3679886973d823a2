-- Asset check check_validity_notices_status: one notice per kind, recipient and month with a
-- violation; a mailed notice has its mailing day and last day to correct, a draft neither; every
-- notice names its letter and counts its items. One count per kind of fault, in this order.
SELECT count(*) FILTER (WHERE letter IS NULL) AS without_letter,
       count(*) FILTER (WHERE status = 'mailed'
                        AND (issued_on IS NULL OR correct_by IS NULL)) AS mailed_without_dates,
       count(*) FILTER (WHERE status <> 'mailed'
                        AND (issued_on IS NOT NULL OR correct_by IS NOT NULL)) AS drafts_with_dates,
       count(*) - count(DISTINCT (kind, recipient_id, period)) AS duplicates,
       count(*) FILTER (WHERE violations < 1) AS without_violations,
       count(*) FILTER (WHERE violations <> (SELECT count(*) FROM notice_items i
                                             WHERE i.kind = n.kind AND i.recipient_id = n.recipient_id
                                               AND i.period = n.period)) AS counts_unlike_items
FROM notices n;
