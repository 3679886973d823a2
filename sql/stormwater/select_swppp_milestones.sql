-- Construction milestones and the notice given before each.
SELECT site_id, milestone, occurs_on, occurs_at, notified_at
FROM milestones
WHERE site_id IS NOT NULL AND milestone IS NOT NULL AND occurs_on IS NOT NULL
ORDER BY site_id, occurs_on, milestone;
