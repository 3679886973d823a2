-- Users with samples or flow readings above 0 (through the day judged; a probe's readings and zero flow
-- are not a discharge) on days no dated permit covers, whose permit term is not on file: a permit in force
-- with a number but neither date (in industrial_users or an earlier load of it), or a user_id with no
-- industrial user row and no permit. Not judged for discharging without a permit (reading
-- permit_term_unknown). Reads _uncovered (create_uncovered_days). Parameter: $citation.
INSERT INTO permit_dates_missing BY NAME
SELECT u.user_id, any_value(u.name) AS name,
       (SELECT string_agg(p.permit_no, ', ' ORDER BY p.permit_no) FROM user_permits AS p
        WHERE p.user_id = u.user_id AND p.status = 'in_force' AND p.effective_on IS NULL
              AND p.expires_on IS NULL) AS permit_no,
       min(u.day) AS first_day, max(u.day) AS last_day, count(*)::INTEGER AS days,
       sum(u.samples)::INTEGER AS samples, sum(u.flow_readings)::BIGINT AS flow_readings,
       CASE WHEN any_value(u.case_of) = 'unknown_user'
            THEN 'samples or readings of a user that is not among the industrial users: add its permit record'
            ELSE 'the permit number is on file but neither the date the permit took effect nor the date it '
                 || 'expires: fill them in'
       END AS reason,
       $citation AS rule
FROM _uncovered AS u
WHERE u.case_of IN ('unknown_user', 'unknown_term')
GROUP BY u.user_id
ORDER BY u.user_id;
