-- Every result judged against a per-sample limit (discharge_evaluations), with
-- its local date, for significant noncompliance (40 CFR 403.8(f)(2)(viii)); the
-- asset puts each in the period the rules in effect on its day define.
-- One row per result and limit (pH: min and max).
SELECT user_id, parameter, sample_id, collected_date, limit_type, limit_value, value,
       coalesce(nondetect, FALSE) AS nondetect, outcome
FROM discharge_evaluations
WHERE limit_type IN ('max', 'min') AND collected_date IS NOT NULL
ORDER BY user_id, parameter, collected_date, sample_id, limit_type
