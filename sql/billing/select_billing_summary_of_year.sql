-- One billing year's summary by district and property class.
SELECT district, property_class, parcels,
       units_bond, units_om, units_street_lateral, units_house_lateral,
       amount_bond, amount_om, amount_street_lateral, amount_house_lateral, total_usd
FROM billing_summary
WHERE year = $year
ORDER BY district, property_class;
