-- The findings at the municipality's own sites and premises (contract 8.4: the rules' own_names): no notice
-- or order, a line of its person's worklist each, oldest first. A line closes when its record arrives
-- (contract 7.5): the correction (the inspection made, the report delivered, the trap pumped, the
-- discharge abated); a finding of a month's notice items (source notices: a violation even once corrected,
-- such as an inspection made late) also needs the month recorded as seen to (closed_by: a notices_mailed
-- row of its kind, subject and month with a withdrawn_reason and no mailing day).
SELECT person, kind, subject_id, subject_name, owner, municipality, period, item, ref, item_on, known_on,
       resolved_on, description, finding, source
FROM own_findings
WHERE resolved_on IS NULL OR (source = 'notices' AND closed_by IS NULL)
ORDER BY person, known_on, subject_id, item, ref
