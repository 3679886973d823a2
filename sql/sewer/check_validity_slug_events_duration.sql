-- Slug events that do not last longer than the min_duration_min, or do not peak
-- above the ratio, of the slug rule in effect on their first day (slug_rules).
-- Connections use the local time zone: CAST(start_at AS DATE) is the local day.
SELECT count(*)
FROM slug_events e
LEFT JOIN slug_rules r ON CAST(e.start_at AS DATE) BETWEEN r.effective_from AND r.effective_to
WHERE r.ratio IS NULL OR NOT (e.duration_min > r.min_duration_min AND e.peak_ratio > r.ratio)
