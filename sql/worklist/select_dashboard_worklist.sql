-- Each person's open actions as the pages show them (dashboards/worklist.py), in the order the list is
-- read (outfall/law/worklist.py sort_key): by person; the rows of the to-record workbook to correct first;
-- then overdue, due within the week, undated, upcoming; the dated by due date, the undated oldest first by
-- the day their first item was found.
SELECT *
FROM worklist
ORDER BY
    CASE person WHEN 'superintendent' THEN 0 WHEN 'stormwater_officer' THEN 1 WHEN 'clerk' THEN 2 ELSE 3 END,
    NOT coalesce(first, FALSE),
    CASE status
        WHEN 'overdue' THEN 0 WHEN 'due' THEN 1 WHEN 'undated' THEN 2 WHEN 'upcoming' THEN 3 ELSE 4
    END,
    coalesce(due, found_on) IS NULL, coalesce(due, found_on), subject_id, action;
