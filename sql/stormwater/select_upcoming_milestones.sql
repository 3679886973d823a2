-- Milestones from $as_of through $until, for the officer's week.
SELECT site_id, milestone, occurs_on, notified_at
FROM milestones
WHERE occurs_on BETWEEN $as_of AND $until
ORDER BY occurs_on, site_id, milestone;
