-- Every stormwater finding of both findings tables, as the notices need them.
SELECT site_id, jurisdiction, requirement AS finding, NULL::VARCHAR AS subject, NULL::VARCHAR AS detail,
       trigger_date, due_by, satisfied_on, status, days_late, rule,
       'swppp_inspection_findings' AS source_table
FROM swppp_inspection_findings
UNION ALL
SELECT site_id, jurisdiction, finding, subject, detail, trigger_date, due_by, satisfied_on, status, days_late,
       rule, 'swppp_other_findings' AS source_table
FROM swppp_other_findings
ORDER BY site_id, trigger_date, finding, subject;
