-- Results of a parameter with no limit of any type (max, min, daily_max,
-- monthly_avg; permit or default) in effect on the sample's local date:
-- reported as "no limit defined", never dropped. A parameter the rules limit on
-- other days (before the first version, say) is "no limit in effect" that day.
-- The rule text is the one in effect on the sample's day (sewer_compliance_rules).
-- Parameters: $uncited (the rule text when none is in effect).
INSERT INTO unlimited_results BY NAME
WITH results AS (
    SELECT user_id, sample_id, parameter, lower(parameter) AS pkey, collected_at,
           coalesce(collected_date, collected_at::DATE) AS collected_date, sample_type,
           result AS value, coalesce(nondetect, FALSE) AS nondetect, unit
    FROM lab_results
),
limits AS (
    SELECT user_id, lower(parameter) AS pkey, effective_from, effective_to
    FROM permit_limits WHERE value IS NOT NULL
    UNION ALL
    SELECT NULL, lower(parameter), effective_from, effective_to FROM discharge_limit_defaults
)
SELECT user_id, sample_id, parameter, collected_at, collected_date, sample_type, value, nondetect, unit,
       CASE WHEN EXISTS (SELECT 1 FROM discharge_limit_defaults d WHERE lower(d.parameter) = r.pkey)
            THEN 'no limit in effect on ' || r.collected_date || ' (the rules limit ' || r.parameter
                 || ' on other days)'
            ELSE 'no limit defined' END AS reason,
       coalesce(t.no_limit_citation, $uncited) AS rule
FROM results r
LEFT JOIN sewer_compliance_rules t ON r.collected_date BETWEEN t.effective_from AND t.effective_to
WHERE NOT EXISTS (
    SELECT 1 FROM limits l
    WHERE l.pkey = r.pkey
      AND (l.user_id IS NULL OR l.user_id = r.user_id)
      AND (l.effective_from IS NULL OR l.effective_from <= r.collected_date)
      AND (l.effective_to IS NULL OR r.collected_date <= l.effective_to)
)
ORDER BY user_id, collected_at, sample_id, parameter
