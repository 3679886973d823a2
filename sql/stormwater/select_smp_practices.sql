-- The post-construction stormwater management practices with their site's jurisdiction,
-- construction start and final stabilization (NULL site_known: the site is not in `sites`).
SELECT p.practice_id, p.site_id, p.practice_type, p.as_built_received_on, p.as_built_pe_certified,
       p.final_plan_approved_on, p.maintenance_agreement_recorded_on, p.final_acceptance_on,
       p.one_year_inspection_on, p.guarantee_released_on, p.source_file, p.source_row,
       s.site_id IS NOT NULL AS site_known, s.jurisdiction, s.construction_start, s.final_stabilization
FROM smp_practices AS p
LEFT JOIN (SELECT site_id, any_value(jurisdiction) AS jurisdiction,
                  any_value(construction_start) AS construction_start,
                  any_value(final_stabilization) AS final_stabilization
           FROM sites GROUP BY site_id) AS s USING (site_id)
ORDER BY p.site_id, p.practice_id;
