-- Contractors' SWPPP certifications: when each signed and first worked.
SELECT site_id, contractor, title, signed_on, first_work_on
FROM contractor_certifications
WHERE site_id IS NOT NULL AND contractor IS NOT NULL AND first_work_on IS NOT NULL
ORDER BY site_id, contractor;
