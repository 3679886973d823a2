-- Non-detects that can be judged neither compliant nor in violation.
-- The rule text is the one in effect on the sample's day (sewer_compliance_rules).
-- Parameters: $uncited (the rule text when none is in effect).
INSERT INTO inconclusive_results BY NAME
SELECT user_id, sample_id, parameter, collected_at, value AS detection_value,
       coalesce(qualifier, CASE WHEN nondetect THEN '<' END) AS qualifier, unit, limit_value, limit_type,
       limit_source,
       CASE
           WHEN value IS NULL THEN 'no result value (non-detect without a detection value)'
           WHEN excursion_minutes IS NOT NULL AND NOT nondetect
                THEN 'one sample beyond a limit the law breaks only by an excursion lasting longer than '
                     || printf('%g', excursion_minutes)
                     || ' minutes (the continuous readings show how long it lasts)'
           WHEN limit_type = 'max' THEN 'non-detect whose detection value is above the maximum limit'
           ELSE 'non-detect whose detection value is above the minimum limit'
       END AS reason,
       coalesce(t.inconclusive_citation, $uncited) || '; limit: ' || e.rule AS rule
FROM discharge_evaluations e
LEFT JOIN sewer_compliance_rules t ON e.collected_date BETWEEN t.effective_from AND t.effective_to
WHERE outcome = 'inconclusive'
ORDER BY user_id, collected_at, sample_id, parameter, limit_type
