-- The days of _activity (create_user_activity_days) on which no permit of the user in force had it in
-- effect (user_permits, contract 8.2: a permit covers the days from effective_on through expires_on, both
-- included; a missing date leaves that side open; a permit with neither date covers nothing), as the temp
-- table _uncovered, one row per user and day, with what the two permit-term statements need:
--   case_of: never_permitted (the user is on file, by industrial_users or the permits folder, and holds no
--            permit in force at all), unknown_user (no industrial user row and no permit), unknown_term (a
--            permit in force with neither date: reading permit_term_unknown), else outside_terms;
--   the permit that ended last before the day (prev_*) and the one that begins first after it (next_*).
CREATE OR REPLACE TEMP TABLE _uncovered AS
WITH in_force AS (
    SELECT user_id, permit_no, effective_on, expires_on
    FROM user_permits WHERE status = 'in_force'
),

dated AS (
    SELECT * FROM in_force WHERE effective_on IS NOT NULL OR expires_on IS NOT NULL
),

users AS (
    SELECT user_id, any_value(name) AS name FROM industrial_users GROUP BY user_id
    UNION
    SELECT DISTINCT user_id, NULL AS name FROM user_permits
    WHERE user_id NOT IN (SELECT user_id FROM industrial_users)
),

uncovered AS (
    SELECT a.*
    FROM _activity AS a
    WHERE NOT EXISTS (
        SELECT 1 FROM dated AS p
        WHERE p.user_id = a.user_id
              AND (p.effective_on IS NULL OR a.day >= p.effective_on)
              AND (p.expires_on IS NULL OR a.day <= p.expires_on)
    )
),

prev AS (
    SELECT u.user_id, u.day, arg_max(p.permit_no, p.expires_on) AS permit_no,
           arg_max(p.effective_on, p.expires_on) AS effective_on, max(p.expires_on) AS expires_on
    FROM uncovered AS u JOIN dated AS p ON p.user_id = u.user_id AND p.expires_on < u.day
    GROUP BY u.user_id, u.day
),

next AS (
    SELECT u.user_id, u.day, arg_min(p.permit_no, p.effective_on) AS permit_no,
           min(p.effective_on) AS effective_on, arg_min(p.expires_on, p.effective_on) AS expires_on
    FROM uncovered AS u JOIN dated AS p ON p.user_id = u.user_id AND p.effective_on > u.day
    GROUP BY u.user_id, u.day
)

SELECT u.user_id, k.name, u.day, u.samples, u.flow_readings,
       CASE WHEN k.user_id IS NULL THEN 'unknown_user'
            WHEN u.user_id IN (SELECT user_id FROM in_force WHERE effective_on IS NULL AND expires_on IS NULL)
                THEN 'unknown_term'
            WHEN u.user_id NOT IN (SELECT user_id FROM in_force) THEN 'never_permitted'
            ELSE 'outside_terms'
       END AS case_of,
       pv.permit_no AS prev_permit_no, pv.effective_on AS prev_effective, pv.expires_on AS prev_expires,
       nx.permit_no AS next_permit_no, nx.effective_on AS next_effective, nx.expires_on AS next_expires
FROM uncovered AS u
LEFT JOIN users AS k USING (user_id)
LEFT JOIN prev AS pv USING (user_id, day)
LEFT JOIN next AS nx USING (user_id, day);
