-- Slug discharges (the sewer use law, definition of SLUG), each reading by
-- the slug rule in effect on its local day (table slug_rules).
-- A reading is high when value > threshold (ratio x baseline of its local day);
-- a run is consecutive high readings with no gap before a reading longer than
-- that reading's gap_factor x the usual interval (any reading not high ends it:
-- slug_candidates holds every reading near a high one); duration = last - first
-- + one interval; a slug when the duration is longer than the min_duration_min
-- of the rule in effect when the run began (strictly), cited by that rule. Runs cross midnight
-- and daylight-saving changes freely: they are built on UTC instants; each
-- reading uses its own day's baseline. The peak is the reading of the highest
-- ratio; baseline and peak_value are that reading's.
-- Parameters: $emit_from (runs ending before it are kept from an earlier run); $start_from, $start_to
-- (the runs starting in a month partition's days; a run going on at $start_from is the month before's).
INSERT INTO slug_events BY NAME
WITH judged AS (
    SELECT c.user_id, c.constituent, c.ts, c.value, s.baseline, s.baseline_source, i.interval_s,
           r.gap_factor, r.min_duration_min, r.rule,
           coalesce(c.value > c.threshold, FALSE) AS high
    FROM slug_candidates c
    LEFT JOIN slug_daily_stats s
      ON s.user_id = c.user_id AND s.constituent = c.constituent AND s.local_day = c.local_day
    LEFT JOIN slug_intervals i ON i.user_id = c.user_id AND i.constituent = c.constituent
    LEFT JOIN slug_rules r ON c.local_day BETWEEN r.effective_from AND r.effective_to
),
ordered AS (
    SELECT *, lag(high) OVER w AS prev_high, lag(ts) OVER w AS prev_ts
    FROM judged
    WINDOW w AS (PARTITION BY user_id, constituent ORDER BY ts, value)
),
highs AS (
    SELECT *,
           CASE WHEN coalesce(prev_high, FALSE)
                     AND epoch_us(ts) - epoch_us(prev_ts) <= gap_factor * interval_s * 1000000.0
                THEN 0 ELSE 1 END AS starts
    FROM ordered
    WHERE high AND interval_s IS NOT NULL
),
runs AS (
    SELECT *, sum(starts) OVER (PARTITION BY user_id, constituent ORDER BY ts, value
                                ROWS UNBOUNDED PRECEDING) AS run_no
    FROM highs
),
grouped AS (
    SELECT user_id, constituent, run_no, min(ts) AS start_at, max(ts) AS end_at, count(*) AS readings,
           (epoch_us(max(ts)) - epoch_us(min(ts))) / 1e6 + any_value(interval_s) AS duration_s,
           arg_max({'value': value, 'baseline': baseline, 'source': baseline_source},
                   value / baseline) AS peak,
           max(value / baseline) AS peak_ratio,
           arg_min(min_duration_min, ts) AS min_duration_min, arg_min(rule, ts) AS rule
    FROM runs
    GROUP BY user_id, constituent, run_no
)
SELECT user_id, constituent, start_at, end_at,
       CAST(ceil(duration_s / 60.0 - 1e-9) AS INTEGER) AS duration_min,
       peak.baseline AS baseline, peak.value AS peak_value, peak_ratio,
       CASE constituent WHEN 'flow' THEN 'gpm' WHEN 'pH' THEN 's.u.' WHEN 'temperature' THEN 'degF'
                        ELSE 'mg/L' END AS unit,
       readings::INTEGER AS readings, peak.source AS baseline_source, rule
FROM grouped
WHERE duration_s > min_duration_min * 60.0 AND end_at >= $emit_from
  AND start_at >= $start_from AND start_at < $start_to
ORDER BY user_id, constituent, start_at
