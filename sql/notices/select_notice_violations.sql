-- Every violation a monthly notice lists (contract 5.1), one row each, in the order a letter lists them:
-- - sewer: each row of discharge_violations, in the local month it was collected ($tz);
-- - stormwater: each row of swppp_inspection_findings, in the month of its due_by.
-- kind, recipient_id and period identify the notice; the rest describes the violation.
SELECT 'sewer' AS kind, v.user_id AS recipient_id,
       strftime(timezone($tz, v.collected_at), '%Y-%m') AS period,
       CAST(timezone($tz, v.collected_at) AS DATE) AS violation_on,
       v.sample_id, v.parameter, v.collected_at, v.value, v.unit, v.limit_value, v.limit_type, v.rule,
       NULL::VARCHAR AS requirement, NULL::DATE AS trigger_date, NULL::DATE AS due_by,
       NULL::DATE AS satisfied_on, NULL::VARCHAR AS finding_status, NULL::VARCHAR AS jurisdiction
FROM discharge_violations v
UNION ALL
SELECT 'stormwater', f.site_id, strftime(f.due_by, '%Y-%m'), f.due_by,
       NULL, NULL, NULL, NULL, NULL, NULL, NULL, f.rule,
       f.requirement, f.trigger_date, f.due_by, f.satisfied_on, f.status, f.jurisdiction
FROM swppp_inspection_findings f
ORDER BY kind, recipient_id, period, violation_on, sample_id, parameter, limit_type, requirement, trigger_date
