-- Baseline and threshold of every day from $from_day on (contract section 4):
-- the permit's normal_avg_flow_gpd / 1440 (gpm) for constituent flow when given,
-- else the median of the daily means of the $baseline_days local days before
-- the day, when at least $min_days of them have readings; threshold = $ratio x
-- baseline. A day's baseline depends only on earlier days, so appending days
-- leaves earlier baselines unchanged. View slug_permits: user_id, normal_avg_flow_gpd.
UPDATE slug_daily_stats AS s
SET prior_days = b.prior_days, baseline = b.baseline, baseline_source = b.baseline_source,
    threshold = b.baseline * $ratio
FROM (
    WITH w AS (
        SELECT user_id, constituent, local_day,
               median(mean_value) OVER win AS prior_median,
               count(*) OVER win AS prior_days
        FROM slug_daily_stats
        WHERE local_day >= $from_day - CAST($baseline_days AS INTEGER)
        WINDOW win AS (PARTITION BY user_id, constituent ORDER BY (local_day - DATE '1970-01-01')
                       RANGE BETWEEN CAST($baseline_days AS BIGINT) PRECEDING AND 1 PRECEDING)
    )
    SELECT w.user_id, w.constituent, w.local_day, w.prior_days::INTEGER AS prior_days,
           CASE WHEN w.constituent = 'flow' AND p.normal_avg_flow_gpd > 0 THEN p.normal_avg_flow_gpd / 1440.0
                WHEN w.prior_days >= $min_days THEN w.prior_median END AS baseline,
           CASE WHEN w.constituent = 'flow' AND p.normal_avg_flow_gpd > 0
                    THEN 'the permit''s normal average flow (gallons a day / 1,440 = gallons a minute)'
                WHEN w.prior_days >= $min_days
                    THEN 'median of the daily means of ' || w.prior_days || ' days in the '
                         || $baseline_days || ' days before'
                ELSE 'none: ' || w.prior_days || ' of the ' || $baseline_days
                     || ' days before have readings (' || $min_days || ' needed)' END AS baseline_source
    FROM w LEFT JOIN slug_permits p USING (user_id)
    WHERE w.local_day >= $from_day
) AS b
WHERE s.user_id = b.user_id AND s.constituent = b.constituent AND s.local_day = b.local_day
