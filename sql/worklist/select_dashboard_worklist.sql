-- Each person's open actions as the pages show them (dashboards/worklist.py), in the order the list is
-- read (outfall/law/worklist.py sort_key): by person, overdue, due within the week, then upcoming; within
-- each, by due date, the undated last.
SELECT *
FROM worklist
ORDER BY CASE person WHEN 'superintendent' THEN 0 WHEN 'stormwater_officer' THEN 1 WHEN 'clerk' THEN 2
                     ELSE 3 END,
         CASE status WHEN 'overdue' THEN 0 WHEN 'due' THEN 1 WHEN 'upcoming' THEN 2 ELSE 3 END,
         due IS NULL, due, subject_id, action;
