-- Inspections and milestones coming due at active sites (swppp_upcoming).
SELECT site_id, site_name, requirement, trigger_date, due_by, detail, inspector
FROM swppp_upcoming
ORDER BY due_by, site_id, requirement
