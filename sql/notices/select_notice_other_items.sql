-- Notice items of kind `other` (contract 6.1): each row of swppp_other_findings, in the month of the day
-- it was found (its due_by; the day it arose when it has none); known the day after that day (the day
-- itself when the finding arose and was due the same day); resolved when the requirement was met late.
-- ended_on: the day the inputs end a continuing violation the law counted only to the site's final
-- stabilization (its days late end on that day), so a letter states it from its first day to that one
-- (contract 8.1); a letter dated before it states it as continuing on its date.
SELECT o.site_id AS recipient_id, o.finding AS ref, o.rule, coalesce(o.due_by, o.trigger_date) AS month_day,
       CASE WHEN o.due_by IS NULL OR o.due_by <= o.trigger_date THEN coalesce(o.due_by, o.trigger_date)
            ELSE o.due_by + 1 END AS known_on,
       o.satisfied_on AS resolved_on,
       o.finding, o.subject, o.detail, o.trigger_date, o.due_by, o.jurisdiction,
       CASE WHEN o.status = 'overdue' AND s.final_stabilization IS NOT NULL
                 AND o.due_by + o.days_late = s.final_stabilization
            THEN s.final_stabilization END AS ended_on
FROM swppp_other_findings AS o
LEFT JOIN (SELECT site_id, max(final_stabilization) AS final_stabilization FROM sites GROUP BY site_id) AS s
    ON s.site_id = o.site_id
ORDER BY recipient_id, month_day, o.finding, o.subject
