-- Slug discharges (slug_events) with the local date each began, for the written
-- report due within 5 days (40 CFR 403.8(f)(2)(vi)).
SELECT user_id, constituent, start_at, CAST(start_at AS DATE) AS start_on, end_at, peak_value, peak_ratio,
       unit
FROM slug_events
ORDER BY user_id, start_at, constituent
