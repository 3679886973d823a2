-- The index page's stormwater card: SWPPP inspections overdue (not done, past due) and late (done after the
-- due day), and the first and last due day (the months the counts cover, as the stormwater page states them).
SELECT count(*) FILTER (WHERE status = 'overdue') AS overdue,
       count(*) FILTER (WHERE status = 'late') AS late,
       min(due_by) AS first_due, max(due_by) AS last_due
FROM swppp_inspection_findings;
