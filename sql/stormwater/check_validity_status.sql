-- Asset check check_validity_status: Every finding is weekly or storm, late (with satisfied_on after
-- due_by) or overdue (satisfied_on null, due_by before the day judged), with due_by on or after trigger_date.
SELECT count(*)
FROM swppp_inspection_findings
WHERE requirement NOT IN ('weekly', 'storm')
   OR status NOT IN ('late', 'overdue')
   OR due_by < trigger_date
   OR (status = 'late' AND (satisfied_on IS NULL OR satisfied_on <= due_by))
   OR (status = 'overdue' AND (satisfied_on IS NOT NULL OR due_by >= ?));
