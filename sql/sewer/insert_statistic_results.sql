-- Daily-maximum and monthly-average limits (permit_limits limit_type daily_max /
-- monthly_avg, or a default of those types), each judged on its own.
-- daily_max: the day's composite (mean of the day's composites when several),
--   else the mean of the day's grabs, per user, parameter and local date, judged
--   against the daily_max limit in effect on that day;
-- monthly_avg: the mean of the calendar month's results, judged against the
--   monthly_avg limit in effect on the month's last day (contract 5.2; a month
--   with no such limit on its last day is not judged);
-- non-detects enter averages per nondetect_policies (zero, half_dl, dl).
-- A period breaks its limit when its value is strictly above it.
-- Parameters: $statistic_citation (rule of a permit limit with no basis), $nd_default.
INSERT INTO statistic_results BY NAME
WITH results AS (
    SELECT rowid AS rid, user_id, parameter, lower(parameter) AS pkey,
           coalesce(collected_date, collected_at::DATE) AS d, sample_type,
           result, coalesce(nondetect, false) AS nondetect, unit
    FROM lab_results
),
limits AS (
    SELECT user_id, pkey, limit_type, limit_value, effective_from, effective_to, priority, limit_source,
           CASE WHEN priority = 1
                THEN coalesce(basis, $statistic_citation) || coalesce(' (permit ' || permit_no || ')', '')
                ELSE basis END AS rule
    FROM applicable_limit_sources
    WHERE limit_type IN ('daily_max', 'monthly_avg')
),
valued AS (
    SELECT r.*, coalesce(p.policy, $nd_default) AS policy,
           CASE WHEN NOT r.nondetect THEN r.result
                WHEN coalesce(p.policy, $nd_default) = 'zero' THEN 0.0
                WHEN coalesce(p.policy, $nd_default) = 'half_dl' THEN r.result / 2.0
                ELSE r.result END AS avg_value
    FROM results r LEFT JOIN nondetect_policies p ON lower(p.parameter) = r.pkey
),
matched AS (
    SELECT v.*, l.limit_type, l.limit_value, l.limit_source, l.rule,
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
                ELSE count(*) FILTER (WHERE sample_type IS DISTINCT FROM 'composite' AND nondetect) END AS nondetects,
           limit_value, any_value(unit) AS unit, any_value(policy) AS nondetect_policy, limit_source, rule
    FROM matched WHERE pick = 1 AND limit_type = 'daily_max'
    GROUP BY user_id, pkey, d, limit_value, limit_source, rule
),
months AS (
    SELECT user_id, pkey, any_value(parameter) AS parameter, date_trunc('month', d)::DATE AS period_start,
           (date_trunc('month', d) + INTERVAL 1 MONTH - INTERVAL 1 DAY)::DATE AS period_end,
           avg(avg_value) AS value, count(avg_value) AS samples, count(*) FILTER (WHERE nondetect) AS nondetects,
           any_value(unit) AS unit, any_value(policy) AS nondetect_policy
    FROM valued
    GROUP BY user_id, pkey, date_trunc('month', d)
),
monthly AS (
    SELECT m.user_id, m.parameter, 'monthly_avg' AS statistic, m.period_start, m.period_end, m.value, m.samples,
           m.nondetects, l.limit_value, m.unit, m.nondetect_policy, l.limit_source, l.rule,
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
    QUALIFY pick = 1
)
SELECT user_id, parameter, statistic, period_start, period_end, value, limit_value, unit,
       samples::INTEGER AS samples, nondetects::INTEGER AS nondetects, nondetect_policy, limit_source,
       value IS NULL OR value <= limit_value AS passes,
       value / nullif(limit_value, 0) AS exceedance_ratio, rule
FROM (SELECT * FROM daily UNION ALL BY NAME SELECT * EXCLUDE (pick) FROM monthly)
ORDER BY user_id, parameter, statistic, period_start, limit_value
