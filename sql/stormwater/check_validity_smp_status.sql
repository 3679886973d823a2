-- Asset check check_validity_smp_status: Every finding is one of the four, with a status of late, open
-- or overdue (a guarantee released early is overdue) and a rule citing its section. Threshold: 0 rows
-- that are not. Severity ERROR.
SELECT count(*)
FROM smp_findings
WHERE finding NOT IN ('as_built', 'maintenance_agreement', 'one_year_inspection', 'guarantee_release')
   OR status NOT IN ('late', 'open', 'overdue')
   OR (finding = 'guarantee_release' AND status <> 'overdue')
   OR coalesce(rule, '') = '';
