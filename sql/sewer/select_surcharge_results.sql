-- Lab results of the surcharged parameters ($parameters, lower case: those surcharged by the pound or by
-- strength) collected by $as_of, with the local month, for surcharges.
SELECT user_id, CAST(date_trunc('month', collected_date) AS DATE) AS month, parameter, sample_id,
       collected_at, collected_date, sample_type, result AS value, coalesce(nondetect, FALSE) AS nondetect,
       unit
FROM lab_results
WHERE list_contains($parameters, lower(parameter)) AND collected_date <= $as_of
ORDER BY user_id, month, parameter, collected_at, sample_id
