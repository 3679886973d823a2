-- Asset check check_validity_illicit_status: every deadline's status is one of met, late, open, overdue or
-- suspended, and agrees with its days: suspended only for an abatement (while an appeal is pending), the one
-- status without a due day; met and late satisfied on or before, and after, due; open and overdue not
-- satisfied, due on or after, and before, the day judged. Threshold: 0 rows that do not. Severity ERROR.
SELECT case_id, obligation, status
FROM illicit_discharge_deadlines
WHERE status IS NULL
   OR status NOT IN ('met', 'late', 'open', 'overdue', 'suspended')
   OR (status = 'suspended') <> (due IS NULL)
   OR (status = 'suspended' AND obligation <> 'abatement')
   OR (status = 'met' AND (satisfied_on IS NULL OR satisfied_on > due))
   OR (status = 'late' AND (satisfied_on IS NULL OR satisfied_on <= due))
   OR (status = 'open' AND (satisfied_on IS NOT NULL OR due < as_of))
   OR (status = 'overdue' AND (satisfied_on IS NOT NULL OR due >= as_of))
ORDER BY case_id, obligation;
