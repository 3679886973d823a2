-- Every significant-noncompliance determination's counts, for the asset check of its threshold.
SELECT user_id, period_start, period_end, parameter, criterion, measurements, count, pct
FROM snc_determinations
