-- The inspection reports the officer is waiting for (table swppp_reports_due), each waiting for the record
-- of its delivery (exports/to_record.xlsx, sheet report_deliveries): the site and the inspection's day,
-- and for reading only the site's name, the last day to deliver it and whether that day is near.
SELECT site_id, report_date, site_name, due_by, replace(status, '_', ' ') AS status
FROM swppp_reports_due
ORDER BY due_by, site_id, report_date
