-- Days on which an industrial user discharged, with samples collected or flow readings above 0 (local
-- dates, through the day judged), while no permit of its was in effect (contract 8.2: the union of its
-- permits in user_permits): after the permit that ended last before the day (permit_expired), before the
-- first one (permit_not_yet_effective), or at any time when it holds no permit at all (never_permitted:
-- no permit number and neither date, or every permit withdrawn). A user whose undated permit might cover
-- the day is in permit_dates_missing instead. Reads _uncovered (create_uncovered_days). Each day's rule
-- text is the version of sewer_compliance.without_permit_citation in effect on it (registered as
-- _permit_rules: effective_from, effective_to, citation; a day no version covers is not judged).
INSERT INTO discharges_without_permit BY NAME
SELECT u.user_id, u.name, u.day,
       CASE WHEN u.case_of = 'never_permitted' THEN 'never_permitted'
            WHEN u.prev_expires IS NULL THEN 'permit_not_yet_effective'
            ELSE 'permit_expired'
       END AS finding,
       u.samples::INTEGER AS samples, u.flow_readings,
       CASE WHEN u.prev_expires IS NULL THEN u.next_permit_no ELSE u.prev_permit_no END AS permit_no,
       CASE WHEN u.prev_expires IS NULL THEN u.next_effective ELSE u.prev_effective END AS permit_effective,
       coalesce(u.prev_expires, u.next_expires) AS permit_expires,
       (CASE WHEN u.case_of = 'never_permitted' THEN NULL
             WHEN u.prev_expires IS NULL THEN u.next_effective - u.day
             ELSE u.day - u.prev_expires END)::INTEGER AS days_outside,
       pr.citation AS rule
FROM _uncovered AS u
JOIN _permit_rules AS pr
    ON u.day >= pr.effective_from AND (pr.effective_to IS NULL OR u.day <= pr.effective_to)
WHERE u.case_of IN ('never_permitted', 'outside_terms')
ORDER BY u.user_id, u.day;
