-- Asset check check_completeness_rain_gauge: every active site needing inspections has rainfall at
-- its gauge during its judged period; without it no storm inspection can be required (WARN).
SELECT c.site_id, s.rain_gauge_id
FROM site_classification AS c
JOIN sites AS s USING (site_id)
WHERE c.inspections_required AND c.judged_through IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM rainfall AS r
                  WHERE lower(trim(r.gauge_id)) = lower(trim(s.rain_gauge_id))
                    AND r.date BETWEEN s.construction_start AND c.judged_through)
ORDER BY c.site_id;
