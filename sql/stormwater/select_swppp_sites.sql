-- Construction sites, one row per site_id (the latest loaded when a site was re-sent).
SELECT site_id, jurisdiction, disturbed_acres, construction_start, rain_gauge_id, name, address, applicant,
       coalesce(impaired_water, FALSE) AS impaired_water, coalesce(single_family, FALSE) AS single_family,
       coalesce(agricultural, FALSE) AS agricultural, coalesce(exempt, FALSE) AS exempt, final_stabilization
FROM sites
WHERE site_id IS NOT NULL
QUALIFY row_number() OVER (PARTITION BY site_id
                           ORDER BY loaded_at DESC NULLS LAST, source_file DESC NULLS LAST,
                                    source_row DESC NULLS LAST) = 1
ORDER BY site_id;
