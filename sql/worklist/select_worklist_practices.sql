-- The one-year inspections of post-construction practices still to make (smp_findings open or
-- overdue), with the site's name: the officer's own act. The owner's duties (as-built plans, the
-- maintenance agreement) and a guarantee released early are findings of the site's record.
SELECT f.practice_id, f.site_id, s.name, f.finding, f.due, f.status, f.practice_type, f.rule
FROM smp_findings AS f
LEFT JOIN (SELECT site_id, any_value(name) AS name FROM sites GROUP BY site_id) AS s USING (site_id)
WHERE f.finding = 'one_year_inspection' AND f.status IN ('open', 'overdue')
ORDER BY f.due, f.site_id, f.practice_id
