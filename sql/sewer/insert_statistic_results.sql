-- Daily-maximum and monthly-average limits (permit_limits limit_type daily_max /
-- monthly_avg, or a default of those types), each judged on its own.
-- daily_max: the day's composite (mean of the day's composites when several),
--   else the mean of the day's grabs, per user, parameter and local date, judged
--   against the daily_max limit in effect on that day;
-- monthly_avg: the mean of the calendar month's results, judged against the
--   monthly_avg limit in effect on the month's last day (a month with no such
--   limit on its last day is not judged);
-- a non-detect enters an average as the policy in effect on its own day says
-- (table nondetect_policies: the parameter's own, else '*'; zero, half_dl, dl).
-- A period with a non-detect on a day no policy covers is not judged (value
-- and passes null, the rule says why). A period breaks its limit when its value
-- is strictly above it. A permit limit with no basis is cited by the rules'
-- statistic text in effect on the period's last day (sewer_compliance_rules).
-- Parameters: $uncited (the rule text when no such text is in effect).
INSERT INTO statistic_results BY NAME
WITH results AS (
    -- rid: each result's own number (the inputs are read through views, which have no rowid)
    SELECT row_number() OVER () AS rid, user_id, parameter, lower(parameter) AS pkey,
           coalesce(collected_date, collected_at::DATE) AS d, sample_type,
           result, coalesce(nondetect, FALSE) AS nondetect, unit
    FROM lab_results
),
limits AS (
    SELECT user_id, pkey, limit_type, limit_value, effective_from, effective_to, priority, limit_source,
           basis, permit_no
    FROM applicable_limit_sources
    WHERE limit_type IN ('daily_max', 'monthly_avg')
),
valued AS (
    SELECT r.*, coalesce(own.policy, every.policy) AS policy,
           r.nondetect AND coalesce(own.policy, every.policy) IS NULL AS unvalued,
           CASE WHEN NOT r.nondetect THEN r.result
                WHEN coalesce(own.policy, every.policy) = 'zero' THEN 0.0
                WHEN coalesce(own.policy, every.policy) = 'half_dl' THEN r.result / 2.0
                WHEN coalesce(own.policy, every.policy) = 'dl' THEN r.result END AS avg_value
    FROM results r
    LEFT JOIN nondetect_policies own
      ON lower(own.parameter) = r.pkey AND r.d BETWEEN own.effective_from AND own.effective_to
    LEFT JOIN nondetect_policies every
      ON every.parameter = '*' AND r.d BETWEEN every.effective_from AND every.effective_to
),
matched AS (
    SELECT v.*, l.limit_type, l.limit_value, l.limit_source,
           CASE WHEN l.priority = 1
                THEN coalesce(l.basis, t.statistic_citation, $uncited)
                    || coalesce(' (permit ' || l.permit_no || ')', '')
                ELSE l.basis END AS rule,
           row_number() OVER (
               PARTITION BY v.rid, l.limit_type
               ORDER BY l.priority, l.effective_from DESC NULLS LAST, l.limit_value
           ) AS pick
    FROM valued v
    JOIN limits l
      ON l.limit_type = 'daily_max'
     AND l.pkey = v.pkey
     AND (l.user_id IS NULL OR l.user_id = v.user_id)
     AND (l.effective_from IS NULL OR l.effective_from <= v.d)
     AND (l.effective_to IS NULL OR v.d <= l.effective_to)
    LEFT JOIN sewer_compliance_rules t ON v.d BETWEEN t.effective_from AND t.effective_to
),
daily AS (
    SELECT user_id, any_value(parameter) AS parameter, 'daily_max' AS statistic, d AS period_start,
           d AS period_end,
           CASE WHEN count(*) FILTER (WHERE sample_type = 'composite') > 0
                THEN avg(avg_value) FILTER (WHERE sample_type = 'composite')
                ELSE avg(avg_value) FILTER (WHERE sample_type IS DISTINCT FROM 'composite') END AS value,
           CASE WHEN count(*) FILTER (WHERE sample_type = 'composite') > 0
                THEN count(avg_value) FILTER (WHERE sample_type = 'composite')
                ELSE count(avg_value) FILTER (WHERE sample_type IS DISTINCT FROM 'composite') END AS samples,
           CASE WHEN count(*) FILTER (WHERE sample_type = 'composite') > 0
                THEN count(*) FILTER (WHERE sample_type = 'composite' AND nondetect)
                ELSE count(*) FILTER (WHERE sample_type IS DISTINCT FROM 'composite' AND nondetect)
           END AS nondetects,
           CASE WHEN count(*) FILTER (WHERE sample_type = 'composite') > 0
                THEN bool_or(unvalued) FILTER (WHERE sample_type = 'composite')
                ELSE bool_or(unvalued) FILTER (WHERE sample_type IS DISTINCT FROM 'composite')
           END AS unvalued,
           limit_value, any_value(unit) AS unit, any_value(policy) AS nondetect_policy, limit_source, rule
    FROM matched WHERE pick = 1 AND limit_type = 'daily_max'
    GROUP BY user_id, pkey, d, limit_value, limit_source, rule
),
months AS (
    SELECT user_id, pkey, any_value(parameter) AS parameter, date_trunc('month', d)::DATE AS period_start,
           (date_trunc('month', d) + INTERVAL 1 MONTH - INTERVAL 1 DAY)::DATE AS period_end,
           avg(avg_value) AS value, count(avg_value) AS samples,
           count(*) FILTER (WHERE nondetect) AS nondetects,
           bool_or(unvalued) AS unvalued, any_value(unit) AS unit, any_value(policy) AS nondetect_policy
    FROM valued
    GROUP BY user_id, pkey, date_trunc('month', d)
),
monthly AS (
    SELECT m.user_id, m.parameter, 'monthly_avg' AS statistic, m.period_start, m.period_end, m.value,
           m.samples, m.nondetects, m.unvalued, l.limit_value, m.unit, m.nondetect_policy, l.limit_source,
           CASE WHEN l.priority = 1
                THEN coalesce(l.basis, t.statistic_citation, $uncited)
                    || coalesce(' (permit ' || l.permit_no || ')', '')
                ELSE l.basis END AS rule,
           row_number() OVER (
               PARTITION BY m.user_id, m.pkey, m.period_start
               ORDER BY l.priority, l.effective_from DESC NULLS LAST, l.limit_value
           ) AS pick
    FROM months m
    JOIN limits l
      ON l.limit_type = 'monthly_avg'
     AND l.pkey = m.pkey
     AND (l.user_id IS NULL OR l.user_id = m.user_id)
     AND (l.effective_from IS NULL OR l.effective_from <= m.period_end)
     AND (l.effective_to IS NULL OR m.period_end <= l.effective_to)
    LEFT JOIN sewer_compliance_rules t ON m.period_end BETWEEN t.effective_from AND t.effective_to
    QUALIFY pick = 1
)
SELECT user_id, parameter, statistic, period_start, period_end,
       CASE WHEN unvalued THEN NULL ELSE value END AS value, limit_value, unit,
       samples::INTEGER AS samples, nondetects::INTEGER AS nondetects, nondetect_policy, limit_source,
       CASE WHEN unvalued THEN NULL ELSE value IS NULL OR value <= limit_value END AS passes,
       CASE WHEN unvalued THEN NULL ELSE value / nullif(limit_value, 0) END AS exceedance_ratio,
       CASE WHEN unvalued
            THEN rule || '; not judged: a non-detect of the period falls on a day no non-detect averaging '
                 || 'policy of the rules covers'
            ELSE rule END AS rule
FROM (SELECT * FROM daily UNION ALL BY NAME SELECT * EXCLUDE (pick) FROM monthly)
ORDER BY user_id, parameter, statistic, period_start, limit_value
