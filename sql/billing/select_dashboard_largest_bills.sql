-- The year's largest bills.
SELECT parcel_id, district, property_class, units_bond, units_om, units_street_lateral, units_house_lateral,
       total_usd::DOUBLE AS total_usd, explanation, rule
FROM sewer_bills
WHERE year = $year
ORDER BY total_usd DESC, parcel_id
LIMIT $limit;
