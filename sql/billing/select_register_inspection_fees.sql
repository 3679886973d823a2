-- The inspection fees of the permits applied for in one year ($year), for the register workbook's
-- "Inspection fees" sheet (the inspection fee law).
SELECT f.permit_id, f.parcel_id, p.owner, f.applied_on, f.use, f.in_mall_or_business_park,
       f.water_fee_usd, f.sewer_fee_usd, f.total_usd, f.rule
FROM inspection_fees AS f
LEFT JOIN (SELECT parcel_id, any_value(owner) AS owner FROM parcels GROUP BY parcel_id) AS p USING (parcel_id)
WHERE f.year = $year
ORDER BY f.applied_on, f.permit_id;
