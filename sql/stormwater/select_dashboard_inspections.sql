-- Inspections made, per site and local day.
SELECT site_id, coalesce(inspected_on, inspected_at::DATE) AS inspected_on, inspector, kind,
       sediment_capacity_lost_pct, notes
FROM inspections
WHERE site_id IS NOT NULL AND coalesce(inspected_on, inspected_at::DATE) IS NOT NULL
ORDER BY site_id, inspected_on;
