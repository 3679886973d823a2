-- Post-construction practice findings open or overdue (smp_findings), with the site's name.
SELECT f.practice_id, f.site_id, s.name, f.finding, f.due, f.status, f.practice_type, f.rule
FROM smp_findings f
LEFT JOIN (SELECT site_id, any_value(name) AS name FROM sites GROUP BY site_id) s USING (site_id)
WHERE f.status IN ('open', 'overdue')
ORDER BY f.due, f.site_id, f.practice_id, f.finding
