-- Days on which an industrial user discharged, with samples collected or flow readings above 0
-- (local dates, through the day judged) while no permit of its was in effect: before permit_effective
-- or after permit_expires (both days in effect; a missing date leaves that side open), or at any time
-- when it never held a permit (no permit number and neither date: reading permit_term_unknown). A user
-- with a permit number but neither date is in permit_dates_missing instead. Reads _activity
-- (create_user_activity_days). Each day's rule text is the version of
-- sewer_compliance.without_permit_citation in effect on it (registered as _permit_rules:
-- effective_from, effective_to, citation; a day no version covers is not judged).
INSERT INTO discharges_without_permit BY NAME
WITH users AS (
    SELECT user_id, any_value(name) AS name, any_value(permit_no) AS permit_no,
           any_value(permit_effective) AS permit_effective, any_value(permit_expires) AS permit_expires,
           bool_and(nullif(trim(permit_no), '') IS NULL AND permit_effective IS NULL
                    AND permit_expires IS NULL) AS never_permitted
    FROM industrial_users GROUP BY user_id
)
SELECT a.user_id, u.name, a.day,
       CASE WHEN u.never_permitted THEN 'never_permitted'
            WHEN a.day < u.permit_effective THEN 'permit_not_yet_effective'
            ELSE 'permit_expired' END AS finding,
       a.samples::INTEGER AS samples, a.flow_readings,
       u.permit_no, u.permit_effective, u.permit_expires,
       (CASE WHEN u.never_permitted THEN NULL
             WHEN a.day < u.permit_effective THEN u.permit_effective - a.day
             ELSE a.day - u.permit_expires END)::INTEGER AS days_outside,
       pr.citation AS rule
FROM _activity a JOIN users u USING (user_id)
JOIN _permit_rules pr ON a.day >= pr.effective_from AND (pr.effective_to IS NULL OR a.day <= pr.effective_to)
WHERE u.never_permitted
   OR (u.permit_effective IS NOT NULL AND a.day < u.permit_effective)
   OR (u.permit_expires IS NOT NULL AND a.day > u.permit_expires)
ORDER BY a.user_id, a.day;
