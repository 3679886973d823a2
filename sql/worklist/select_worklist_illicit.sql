-- The Town's own acts of the illicit discharge law that are open or overdue: the appeal hearing and
-- the notice of the cost of an abatement the Town made.
SELECT case_id, obligation, due, status, premises, rule
FROM illicit_discharge_deadlines
WHERE obligation IN ('appeal_hearing', 'cost_notice') AND status IN ('open', 'overdue')
ORDER BY due, case_id, obligation
