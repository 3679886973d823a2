-- Biggest bill changes between two billed years, computed from the register
-- (when bill_changes has not been written).
-- ST03 off: sqlfluff cannot parse the IS DISTINCT FROM below, so it does not see a and b used.
WITH a AS (SELECT * FROM sewer_bills WHERE year = $previous_year),  -- noqa: ST03
     b AS (SELECT * FROM sewer_bills WHERE year = $year)  -- noqa: ST03
SELECT coalesce(b.parcel_id, a.parcel_id) AS parcel_id,
       CASE WHEN a.parcel_id IS NULL THEN 'added' WHEN b.parcel_id IS NULL THEN 'removed'
            WHEN a.property_class IS DISTINCT FROM b.property_class THEN 'reclassed'
            WHEN b.total_usd > a.total_usd THEN 'amount_up' WHEN b.total_usd < a.total_usd THEN 'amount_down'
            ELSE 'unchanged' END AS change,
       a.district AS district_before, b.district AS district_after,
       a.property_class AS class_before, b.property_class AS class_after,
       a.total_usd::DOUBLE AS total_before, b.total_usd::DOUBLE AS total_after,
       (coalesce(b.total_usd, 0) - coalesce(a.total_usd, 0))::DOUBLE AS total_change,
       NULL AS detail
FROM a FULL OUTER JOIN b ON a.parcel_id = b.parcel_id
WHERE a.total_usd IS DISTINCT FROM b.total_usd OR a.property_class IS DISTINCT FROM b.property_class
ORDER BY abs(coalesce(b.total_usd, 0) - coalesce(a.total_usd, 0)) DESC, 1
LIMIT $limit;
