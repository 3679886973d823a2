-- The billing summary (every billing year, by district and property class) as the clerk
-- reads it (billing_summary.csv): headers and values in words through the parallel lists
-- $district_codes / $district_words and $class_codes / $class_words
-- (outfall.billing_words). The table billing_summary keeps the codes.
SELECT
    year AS "Billing year",
    coalesce(list_extract($district_words, list_position($district_codes, district)), district) AS "District",
    coalesce(list_extract($class_words, list_position($class_codes, property_class)), property_class)
        AS "Property class",
    parcels AS "Parcels",
    units_bond AS "Bond units",
    units_om AS "Operation and maintenance units",
    units_street_lateral AS "Street lateral units",
    units_house_lateral AS "House lateral units",
    amount_bond AS "Bond amount (USD)",
    amount_om AS "Operation and maintenance amount (USD)",
    amount_street_lateral AS "Street lateral amount (USD)",
    amount_house_lateral AS "House lateral amount (USD)",
    total_usd AS "Total (USD)",
    run_id AS "Billing run",
    rule AS "Law"
FROM billing_summary
ORDER BY year, district, property_class;
