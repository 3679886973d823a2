-- Notice items of kind `other` (contract 6.1): each row of swppp_other_findings, in the month of the day
-- it was found (its due_by; the day it arose when it has none); known the day after that day (the day
-- itself when the finding arose and was due the same day); resolved when the requirement was met late.
SELECT site_id AS recipient_id, finding AS ref, rule, coalesce(due_by, trigger_date) AS month_day,
       CASE WHEN due_by IS NULL OR due_by <= trigger_date THEN coalesce(due_by, trigger_date)
            ELSE due_by + 1 END AS known_on,
       satisfied_on AS resolved_on,
       finding, subject, detail, trigger_date, due_by, jurisdiction
FROM swppp_other_findings
ORDER BY recipient_id, month_day, finding, subject
