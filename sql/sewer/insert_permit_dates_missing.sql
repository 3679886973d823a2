-- Users with samples or flow readings above 0 (through the day judged; a probe's readings and zero
-- flow are not a discharge) whose permit term is not on file: an industrial user with a permit number
-- but neither permit date, or a user_id with no industrial user row. Not judged for discharging without
-- a permit (reading permit_term_unknown: a user with no permit number and neither date never held a
-- permit, and is judged in discharges_without_permit). Reads _activity (create_user_activity_days).
-- Parameter: $citation.
INSERT INTO permit_dates_missing BY NAME
WITH users AS (
    SELECT user_id, any_value(name) AS name, any_value(permit_no) AS permit_no,
           bool_and(permit_effective IS NULL AND permit_expires IS NULL
                    AND nullif(trim(permit_no), '') IS NOT NULL) AS no_dates
    FROM industrial_users GROUP BY user_id
)
SELECT a.user_id, any_value(u.name) AS name, any_value(u.permit_no) AS permit_no,
       min(a.day) AS first_day, max(a.day) AS last_day, count(*)::INTEGER AS days,
       sum(a.samples)::INTEGER AS samples, sum(a.flow_readings)::BIGINT AS flow_readings,
       CASE WHEN any_value(u.user_id) IS NULL
            THEN 'samples or readings of a user that is not among the industrial users: add its permit record'
            ELSE 'the permit number is on file but neither the date the permit took effect nor the date it '
                 || 'expires: fill them in'
       END AS reason,
       $citation AS rule
FROM _activity a LEFT JOIN users u USING (user_id)
WHERE u.user_id IS NULL OR u.no_dates
GROUP BY a.user_id
ORDER BY a.user_id;
