-- Readings of days no slug rule covers (slug_baseline_gaps says so), as things not judged.
-- Parameters: $asset.
INSERT INTO not_judged (asset, subject, day, section, reason)
SELECT $asset, user_id || ' ' || constituent || ' readings of ' || days_lacking || ' days from ' || first_day
           || ' to ' || last_day, first_day, 'slug', reason
FROM slug_baseline_gaps
WHERE reason LIKE 'not judged:%'
ORDER BY user_id, constituent, first_day
