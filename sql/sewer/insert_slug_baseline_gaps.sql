-- Users and constituents whose readings could not be judged on some days, per
-- slug rule in effect on those days (table slug_rules): no permit
-- normal_avg_flow_gpd (flow) and fewer than the rule's min_baseline_days days
-- with readings in its baseline_days days before; no usual reading interval at
-- all; or no slug rule in effect on the day.
-- Parameters: $coverage (what the rules give, in words: 'they give one from ...').
INSERT INTO slug_baseline_gaps BY NAME
SELECT d.user_id, d.constituent, count(*)::INTEGER AS days_lacking, min(d.local_day) AS first_day,
       max(d.local_day) AS last_day, sum(d.readings) AS readings_not_judged,
       CASE WHEN r.effective_from IS NULL
            THEN 'not judged: the rules give no slug definition in effect on these days ('
                 || $coverage || ')'
            WHEN any_value(i.interval_s) IS NULL
            THEN 'no usual reading interval: no day has two readings'
            ELSE 'no baseline: fewer than ' || any_value(r.min_baseline_days) || ' days with readings in the '
                 || any_value(r.baseline_days)
                 || ' local days before, and the permit gives no normal average flow'
       END AS reason,
       coalesce(any_value(r.rule), 'none: no slug rule in effect on these days') AS rule
FROM slug_daily_stats d
LEFT JOIN slug_intervals i ON i.user_id = d.user_id AND i.constituent = d.constituent
LEFT JOIN slug_rules r ON d.local_day BETWEEN r.effective_from AND r.effective_to
WHERE d.baseline IS NULL OR i.interval_s IS NULL
GROUP BY d.user_id, d.constituent, r.effective_from
ORDER BY d.user_id, d.constituent, first_day
