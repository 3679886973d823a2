-- Inspection reports delivered to the Stormwater Management Officer.
SELECT site_id, report_date, delivered_on
FROM report_deliveries
WHERE site_id IS NOT NULL AND report_date IS NOT NULL AND delivered_on IS NOT NULL
ORDER BY site_id, report_date, delivered_on;
