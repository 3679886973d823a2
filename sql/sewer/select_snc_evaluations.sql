-- Every result judged against a per-sample limit (discharge_evaluations), with
-- the calendar period of $period_months months holding its local date
-- (6: January-June, July-December), for significant noncompliance
-- (40 CFR 403.8(f)(2)(viii)). One row per result and limit (pH: min and max).
SELECT user_id, parameter, sample_id, collected_date,
       make_date(year(collected_date), ((month(collected_date) - 1) // $period_months) * $period_months + 1, 1)
           AS period_start,
       limit_type, limit_value, value, coalesce(nondetect, false) AS nondetect, outcome
FROM discharge_evaluations
WHERE limit_type IN ('max', 'min') AND collected_date IS NOT NULL
ORDER BY user_id, parameter, period_start, sample_id, limit_type
