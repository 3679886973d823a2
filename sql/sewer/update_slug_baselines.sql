-- Baseline and threshold of every day from $from_day on (the sewer use law,
-- definitions: SLUG), each day by the slug rule in effect on it (table slug_rules):
-- the permit's normal_avg_flow_gpd / 1440 (gpm) for constituent flow when given,
-- else the median of the daily means of the rule's baseline_days local days before
-- the day, when at least min_baseline_days of them have readings; threshold =
-- the rule's ratio x baseline. A day no rule covers has no baseline: its readings
-- are not judged. A day's baseline depends only on earlier days, so appending
-- days leaves earlier baselines unchanged. View slug_permits: user_id,
-- normal_avg_flow_gpd.
-- Parameters: $from_day, $to_day (days after it keep theirs: a month partition's last day),
-- $max_baseline_days (the longest baseline_days of slug_rules).
UPDATE slug_daily_stats AS s
SET prior_days = b.prior_days, baseline = b.baseline, baseline_source = b.baseline_source,
    threshold = b.baseline * b.ratio
FROM (
    WITH days AS (
        SELECT d.user_id, d.constituent, d.local_day, d.mean_value,
               r.ratio, r.baseline_days, r.min_baseline_days
        FROM slug_daily_stats d
        LEFT JOIN slug_rules r ON d.local_day BETWEEN r.effective_from AND r.effective_to
        WHERE d.local_day >= $from_day - CAST($max_baseline_days AS INTEGER)
    ),
    windowed AS (
        SELECT *, list({'day': local_day, 'mean': mean_value}) OVER (
                      PARTITION BY user_id, constituent ORDER BY (local_day - DATE '1970-01-01')
                      RANGE BETWEEN CAST($max_baseline_days AS BIGINT) PRECEDING AND 1 PRECEDING) AS prior
        FROM days
    ),
    w AS (
        SELECT user_id, constituent, local_day, ratio, baseline_days, min_baseline_days,
               coalesce(list_transform(list_filter(prior, LAMBDA p: p.day >= local_day - baseline_days),
                                       LAMBDA p: p.mean), []) AS means
        FROM windowed
        WHERE local_day >= $from_day AND local_day <= $to_day
    )
    SELECT w.user_id, w.constituent, w.local_day, w.ratio, len(w.means)::INTEGER AS prior_days,
           CASE WHEN w.ratio IS NULL THEN NULL
                WHEN w.constituent = 'flow' AND p.normal_avg_flow_gpd > 0 THEN p.normal_avg_flow_gpd / 1440.0
                WHEN len(w.means) >= w.min_baseline_days
                    THEN list_aggregate(w.means, 'median') END AS baseline,
           CASE WHEN w.ratio IS NULL THEN 'none: no slug rule in effect on this day'
                WHEN w.constituent = 'flow' AND p.normal_avg_flow_gpd > 0
                    THEN 'the permit''s normal average flow (gallons a day / 1,440 = gallons a minute)'
                WHEN len(w.means) >= w.min_baseline_days
                    THEN 'median of the daily means of ' || len(w.means) || ' days in the '
                         || w.baseline_days || ' days before'
                ELSE 'none: ' || len(w.means) || ' of the ' || w.baseline_days
                     || ' days before have readings (' || w.min_baseline_days || ' needed)'
           END AS baseline_source
    FROM w LEFT JOIN slug_permits p USING (user_id)
) AS b
WHERE s.user_id = b.user_id AND s.constituent = b.constituent AND s.local_day = b.local_day
