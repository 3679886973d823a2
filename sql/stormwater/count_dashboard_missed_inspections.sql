-- The index page's stormwater card: SWPPP inspections overdue (not done, past due) and late (done after the due day).
SELECT count(*) FILTER (WHERE status = 'overdue') AS overdue,
       count(*) FILTER (WHERE status = 'late') AS late
FROM swppp_inspection_findings;
