-- One billing year's bills with the warehouse's codes, in a fixed order: written as
-- sewer_bills_<year>.csv (the machine-readable register) and hashed
-- (billing_runs.register_sha256). Owners and addresses are not in it: they are not
-- billing inputs, so a new owner makes no new billing run.
SELECT
    year, parcel_id, district, property_class,
    units_bond, units_om, units_street_lateral, units_house_lateral,
    amount_bond, amount_om, amount_street_lateral, amount_house_lateral, total_usd,
    explanation, rule
FROM sewer_bills
WHERE year = $year
ORDER BY parcel_id, district;
