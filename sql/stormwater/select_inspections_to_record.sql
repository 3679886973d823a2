-- The inspections coming due or overdue (table swppp_upcoming), each waiting for the officer's record of
-- it (exports/to_record.xlsx, sheet inspections): the site and the kind of inspection of the input folder
-- inspections (a weekly inspection is a routine one), and for reading only what is due and by when, and
-- the duty recording it creates (its report to the officer, contract 8.5).
SELECT site_id,
       CASE requirement WHEN 'weekly' THEN 'routine' ELSE requirement END AS kind,
       site_name, detail, due_by, replace(status, '_', ' ') AS status, then_due
FROM swppp_upcoming
ORDER BY due_by, site_id, requirement, trigger_date
