-- Lab results of the surcharge parameters ($parameters: BOD, TSS) collected by
-- $as_of, with the local month, for surcharges (ch. 253 Part 2).
SELECT user_id, CAST(date_trunc('month', collected_date) AS DATE) AS month, parameter, sample_id,
       collected_at, collected_date, sample_type, result AS value, coalesce(nondetect, FALSE) AS nondetect,
       unit
FROM lab_results
WHERE list_contains($parameters, parameter) AND collected_date <= $as_of
ORDER BY user_id, month, parameter, collected_at, sample_id
