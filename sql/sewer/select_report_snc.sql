-- The significant noncompliance determinations of both halves of one year ($year), for the annual report.
SELECT user_id, period_start, period_end, parameter, criterion, basis, measurements, count, pct, rule
FROM snc_determinations
WHERE year(period_start) = $year
ORDER BY user_id, period_start, criterion, parameter;
