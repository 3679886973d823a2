-- The slug discharges of one year ($year, local), for the annual report.
SELECT user_id, constituent, start_at, end_at, duration_min, baseline, peak_value, peak_ratio, unit
FROM slug_events
WHERE year(start_at::DATE) = $year
ORDER BY user_id, start_at;
