-- Users and constituents whose readings could not be judged on some days: no
-- permit normal_avg_flow_gpd (flow) and fewer than $min_days days with readings
-- in the $baseline_days days before, or no usual reading interval at all.
-- Parameters: $min_days, $baseline_days, $citation.
INSERT INTO slug_baseline_gaps BY NAME
SELECT d.user_id, d.constituent, count(*)::INTEGER AS days_lacking, min(d.local_day) AS first_day,
       max(d.local_day) AS last_day, sum(d.readings) AS readings_not_judged,
       CASE WHEN any_value(i.interval_s) IS NULL
            THEN 'no usual reading interval: no day has two readings'
            ELSE 'no baseline: fewer than ' || $min_days || ' days with readings in the '
                 || $baseline_days || ' local days before, and the permit gives no normal average flow' END AS reason,
       $citation AS rule
FROM slug_daily_stats d
LEFT JOIN slug_intervals i ON i.user_id = d.user_id AND i.constituent = d.constituent
WHERE d.baseline IS NULL OR i.interval_s IS NULL
GROUP BY d.user_id, d.constituent
ORDER BY d.user_id, d.constituent
