-- The classification of every site with the site's own columns the findings need.
SELECT c.site_id, c.jurisdiction, c.inspections_required, c.land_development_activity, c.exempt, c.inspector,
       c.reports_to_officer_weekly, c.active, c.judged_through,
       s.disturbed_acres, s.construction_start, s.final_stabilization, s.rain_gauge_id, s.name, s.address,
       s.applicant, s.owner_name,
       nullif(concat_ws(', ', nullif(trim(s.owner_address), ''),
                        nullif(concat_ws(' ', concat_ws(', ', nullif(trim(s.owner_city), ''),
                                                        nullif(trim(s.owner_state), '')),
                                         nullif(trim(s.owner_zip), '')), '')), '') AS owner_address
FROM site_classification AS c
JOIN (SELECT * FROM sites
      QUALIFY row_number() OVER (PARTITION BY site_id ORDER BY loaded_at DESC NULLS LAST,
                                 source_file DESC NULLS LAST, source_row DESC NULLS LAST) = 1) AS s
  ON s.site_id = c.site_id
ORDER BY c.site_id;
