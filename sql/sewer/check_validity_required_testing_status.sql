-- Asset check check_validity_required_testing_status: every period's status agrees with its samples and
-- the day judged (met: samples >= 1; open: none, period_end on or after as_of; missed: none, period_end
-- before as_of), and the period has begun by the day judged. The rows that do not.
SELECT count(*) AS invalid_rows,
       count(*) FILTER (WHERE status = 'missed') AS invalid_missed
FROM required_testing
WHERE status IS DISTINCT FROM CASE WHEN samples >= 1 THEN 'met'
                                   WHEN period_end >= as_of THEN 'open'
                                   ELSE 'missed' END
   OR samples IS NULL OR samples < 0
   OR period_start > as_of OR period_end < period_start
