-- Per industrial user and local month: samples taken, parameters evaluated,
-- violations (per sample and statistic), inconclusive and unlimited results,
-- slugs, days of discharge without a permit, the worst exceedance ratio, and the permit's expiry as of $as_of
-- (flag when it expires within $warn_days days, or has expired).
-- Users with no activity at all get one row for the month of $as_of.
-- Parameters: $as_of, $warn_days, $tz, $citation.
INSERT INTO compliance_summary BY NAME
WITH users AS (
    -- each user with its current permit (user_permits, contract 8.2: the latest to expire of its permits
    -- in force, renewals included)
    SELECT n.user_id, n.name, p.permit_no, p.expires_on AS permit_expires
    FROM (
        SELECT user_id, arg_max(name, coalesce(permit_effective, DATE '0001-01-01')) AS name
        FROM industrial_users GROUP BY user_id
    ) AS n
    LEFT JOIN user_permits AS p ON p.user_id = n.user_id AND p.is_current
),
samples AS (
    SELECT user_id, date_trunc('month', coalesce(collected_date, collected_at::DATE))::DATE AS month,
           count(DISTINCT sample_id) AS samples_taken, count(*) AS results
    FROM lab_results GROUP BY ALL
),
evals AS (
    SELECT user_id, date_trunc('month', collected_date)::DATE AS month, parameter,
           outcome, exceedance_ratio, 'sample' AS kind
    FROM discharge_evaluations
    UNION ALL
    SELECT user_id, date_trunc('month', period_start)::DATE, parameter,
           CASE WHEN passes THEN 'compliant' ELSE 'violation' END, exceedance_ratio, 'statistic'
    FROM statistic_results
),
eval_months AS (
    SELECT user_id, month,
           count(DISTINCT parameter) AS parameters_evaluated,
           count(*) FILTER (WHERE outcome = 'violation' AND kind = 'sample') AS violations,
           count(*) FILTER (WHERE outcome = 'violation' AND kind = 'statistic') AS statistic_violations,
           count(*) FILTER (WHERE outcome = 'inconclusive') AS inconclusive,
           max(exceedance_ratio) FILTER (WHERE outcome = 'violation') AS worst_exceedance_ratio,
           arg_max(parameter, exceedance_ratio) FILTER (WHERE outcome = 'violation') AS worst_parameter
    FROM evals GROUP BY user_id, month
),
unlimited AS (
    SELECT user_id, date_trunc('month', collected_date)::DATE AS month, count(*) AS unlimited_results
    FROM unlimited_results GROUP BY ALL
),
slugs AS (
    SELECT user_id, date_trunc('month', (start_at AT TIME ZONE $tz)::DATE)::DATE AS month, count(*) AS slugs
    FROM slug_events GROUP BY ALL
),
flow_days AS (
    SELECT user_id, date_trunc('month', local_day)::DATE AS month, sum(readings) AS flow_readings
    FROM slug_daily_stats GROUP BY ALL
),
unpermitted AS (
    SELECT user_id, date_trunc('month', day)::DATE AS month, count(*) AS days_without_permit
    FROM discharges_without_permit GROUP BY ALL
),
activity AS (
    SELECT user_id, month FROM samples
    UNION SELECT user_id, month FROM eval_months
    UNION SELECT user_id, month FROM slugs
    UNION SELECT user_id, month FROM flow_days
    UNION SELECT user_id, month FROM unpermitted
),
keys AS (
    SELECT user_id, month FROM activity
    UNION
    SELECT u.user_id, date_trunc('month', CAST($as_of AS DATE))::DATE
    FROM users u WHERE u.user_id NOT IN (SELECT user_id FROM activity)
),
joined AS (
    SELECT k.user_id, u.name, k.month,
           coalesce(s.samples_taken, 0) AS samples_taken, coalesce(s.results, 0) AS results,
           coalesce(e.parameters_evaluated, 0) AS parameters_evaluated,
           coalesce(e.violations, 0) AS violations,
           coalesce(e.statistic_violations, 0) AS statistic_violations,
           coalesce(e.inconclusive, 0) AS inconclusive,
           coalesce(n.unlimited_results, 0) AS unlimited_results,
           coalesce(g.slugs, 0) AS slugs, coalesce(f.flow_readings, 0) AS flow_readings,
           coalesce(w.days_without_permit, 0) AS days_without_permit,
           e.worst_exceedance_ratio, e.worst_parameter,
           u.permit_no, u.permit_expires,
           u.permit_expires - CAST($as_of AS DATE) AS days_left,
           u.user_id IS NOT NULL AS registered
    FROM keys k
    LEFT JOIN users u USING (user_id)
    LEFT JOIN samples s USING (user_id, month)
    LEFT JOIN eval_months e USING (user_id, month)
    LEFT JOIN unlimited n USING (user_id, month)
    LEFT JOIN slugs g USING (user_id, month)
    LEFT JOIN flow_days f USING (user_id, month)
    LEFT JOIN unpermitted w USING (user_id, month)
)
SELECT user_id, name, month,
       samples_taken::INTEGER AS samples_taken, results::INTEGER AS results,
       parameters_evaluated::INTEGER AS parameters_evaluated, violations::INTEGER AS violations,
       statistic_violations::INTEGER AS statistic_violations, inconclusive::INTEGER AS inconclusive,
       unlimited_results::INTEGER AS unlimited_results, slugs::INTEGER AS slugs, flow_readings,
       days_without_permit::INTEGER AS days_without_permit,
       worst_exceedance_ratio, worst_parameter,
       (sum(violations + statistic_violations) OVER (
            PARTITION BY user_id, year(month) ORDER BY month ROWS UNBOUNDED PRECEDING))::INTEGER
           AS violations_year_to_date,
       permit_no, permit_expires, days_left::INTEGER AS days_left,
       coalesce(days_left <= $warn_days, FALSE) AS permit_expiry_flag,
       CASE WHEN NOT registered THEN 'not an industrial user on file'
            WHEN permit_expires IS NULL THEN 'no permit expiry date on file'
            WHEN days_left < 0 THEN 'expired'
            WHEN days_left <= $warn_days THEN 'expires within ' || $warn_days || ' days'
            ELSE 'in effect' END AS permit_status,
       CAST($as_of AS DATE) AS as_of, $citation AS rule
FROM joined
ORDER BY user_id, month
