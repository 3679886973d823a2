-- Lab results, and those judged somewhere: against a per-sample limit, as "no
-- limit defined", or covered by a statistic limit (permit or default).
SELECT (SELECT count(*) FROM lab_results),
       (SELECT count(*) FROM lab_results r WHERE
            EXISTS (SELECT 1 FROM discharge_evaluations e WHERE e.sample_id IS NOT DISTINCT FROM r.sample_id
                    AND e.user_id IS NOT DISTINCT FROM r.user_id
                    AND e.parameter IS NOT DISTINCT FROM r.parameter)
         OR EXISTS (SELECT 1 FROM unlimited_results u WHERE u.sample_id IS NOT DISTINCT FROM r.sample_id
                    AND u.user_id IS NOT DISTINCT FROM r.user_id
                    AND u.parameter IS NOT DISTINCT FROM r.parameter)
         OR EXISTS (SELECT 1 FROM permit_limits l WHERE l.user_id = r.user_id
                    AND lower(l.parameter) = lower(r.parameter)
                    AND l.limit_type IN ('daily_max', 'monthly_avg'))
         OR EXISTS (SELECT 1 FROM discharge_limit_defaults d WHERE lower(d.parameter) = lower(r.parameter)
                    AND d.limit_type IN ('daily_max', 'monthly_avg')))
