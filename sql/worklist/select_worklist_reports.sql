-- The inspection reports the stormwater officer is waiting for (swppp_reports_due): the duty each recorded
-- inspection creates (contract 8.5), the officer's to record when the report is delivered.
SELECT site_id, site_name, report_date, due_by, rule
FROM swppp_reports_due
ORDER BY due_by, site_id, report_date
