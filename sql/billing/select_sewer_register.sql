-- One billing year's register, in a fixed order: written as sewer_register_<year>.csv
-- and hashed (billing_runs.register_sha256).
SELECT
    year, parcel_id, district, property_class,
    units_bond, units_om, units_street_lateral, units_house_lateral,
    amount_bond, amount_om, amount_street_lateral, amount_house_lateral, total_usd,
    explanation, rule
FROM sewer_bills
WHERE year = $year
ORDER BY parcel_id, district;
