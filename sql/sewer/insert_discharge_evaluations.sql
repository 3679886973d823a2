-- Every lab result against every per-sample limit (max, min) that applies to it
-- (the sewer use law; contract section 4).
-- A permit limit (special agreement, table permit_limits) of the user in effect
-- on the sample's local date replaces the default of the same parameter and
-- limit type (rules: discharge_limit_defaults); of several, the latest
-- effective_from, then the stricter. "In excess of" is strictly greater; a
-- non-detect <X is compliant with a maximum when X <= limit, else inconclusive.
-- A limit the law breaks only by an excursion longer than so many minutes
-- (excursion_minutes: a pH time rule) is not broken by one sample beyond it:
-- that result is inconclusive (the continuous readings are judged by
-- insert_excursion_events.sql).
-- A permit limit with no basis is cited by the rules' special-agreement text in
-- effect on the sample's day (table sewer_compliance_rules).
-- Parameters: $uncited (the rule text when no such text is in effect).
INSERT INTO discharge_evaluations BY NAME
WITH results AS (
    -- rid: each result's own number (the inputs are read through views, which have no rowid)
    SELECT row_number() OVER () AS rid, user_id, sample_id, parameter, lower(parameter) AS pkey,
           collected_at,
           coalesce(collected_date, collected_at::DATE) AS collected_date, sample_type,
           result AS value, coalesce(nondetect, FALSE) AS nondetect, qualifier, unit
    FROM lab_results
),
limits AS (
    SELECT user_id, pkey, limit_type, limit_value, effective_from, effective_to, priority, limit_source,
           basis, permit_no, excursion_minutes
    FROM applicable_limit_sources
    WHERE limit_type IN ('max', 'min')
),
candidates AS (
    SELECT r.*, l.limit_type, l.limit_value, l.limit_source, l.priority, l.basis, l.permit_no,
           l.excursion_minutes,
           row_number() OVER (
               PARTITION BY r.rid, l.limit_type
               ORDER BY l.priority, l.effective_from DESC NULLS LAST,
                        CASE WHEN l.limit_type = 'max' THEN l.limit_value ELSE -l.limit_value END
           ) AS pick
    FROM results r
    JOIN limits l
      ON l.pkey = r.pkey
     AND (l.user_id IS NULL OR l.user_id = r.user_id)
     AND (l.effective_from IS NULL OR l.effective_from <= r.collected_date)
     AND (l.effective_to IS NULL OR r.collected_date <= l.effective_to)
)
SELECT user_id, sample_id, parameter, collected_at, collected_date, sample_type, value, nondetect,
       qualifier, unit, limit_value, limit_type, limit_source, excursion_minutes,
       CASE WHEN priority = 1
            THEN coalesce(basis, t.permit_limit_citation, $uncited)
                || coalesce(' (permit ' || permit_no || ')', '')
            ELSE basis END AS rule,
       CASE
           WHEN value IS NULL THEN 'inconclusive'
           WHEN nondetect AND limit_type = 'max'
                THEN CASE WHEN value <= limit_value THEN 'compliant' ELSE 'inconclusive' END
           WHEN nondetect THEN CASE WHEN value <= limit_value THEN 'violation' ELSE 'inconclusive' END
           WHEN limit_type = 'max' THEN CASE WHEN value <= limit_value THEN 'compliant'
                                              WHEN excursion_minutes IS NOT NULL THEN 'inconclusive'
                                              ELSE 'violation' END
           ELSE CASE WHEN value >= limit_value THEN 'compliant'
                     WHEN excursion_minutes IS NOT NULL THEN 'inconclusive'
                     ELSE 'violation' END
       END AS outcome,
       CASE WHEN limit_type = 'max' THEN value / nullif(limit_value, 0)
            ELSE limit_value / nullif(value, 0) END AS exceedance_ratio
FROM candidates
LEFT JOIN sewer_compliance_rules t ON collected_date BETWEEN t.effective_from AND t.effective_to
WHERE pick = 1
ORDER BY user_id, collected_at, sample_id, parameter, limit_type
