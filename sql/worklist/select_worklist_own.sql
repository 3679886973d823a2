-- The findings at the municipality's own sites and premises (contract 8.4: the rules' own_names): no notice
-- or order, a line of its person's worklist each, oldest first.
SELECT person, kind, subject_id, subject_name, owner, municipality, period, item, ref, item_on, known_on,
       resolved_on, description, source
FROM own_findings
ORDER BY person, known_on, subject_id, item, ref
