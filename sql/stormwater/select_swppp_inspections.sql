-- Every inspection of a site (any kind), in time order; inspected_on is the local date.
SELECT site_id, coalesce(inspected_on, CAST(inspected_at AS DATE)) AS inspected_on, inspected_at, kind,
       sediment_capacity_lost_pct
FROM inspections
WHERE site_id IS NOT NULL AND coalesce(inspected_on, CAST(inspected_at AS DATE)) IS NOT NULL
ORDER BY site_id, inspected_on, inspected_at NULLS LAST, source_file, source_row;
