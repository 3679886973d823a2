-- The year's bill of every parcel: its district and combination of billing
-- inputs (temp table billing_parcel_inputs) priced at the year's rates (temp
-- table billing_priced). total_usd = the sum of the four amounts.
INSERT INTO sewer_bills (
    year, parcel_id, district, property_class,
    units_bond, units_om, units_street_lateral, units_house_lateral,
    amount_bond, amount_om, amount_street_lateral, amount_house_lateral, total_usd,
    explanation, rule
)
SELECT
    $year,
    i.parcel_id, i.district, i.property_class,
    p.units_bond, p.units_om, p.units_street_lateral, p.units_house_lateral,
    p.amount_bond, p.amount_om, p.amount_street_lateral, p.amount_house_lateral,
    CAST(p.amount_bond + p.amount_om + p.amount_street_lateral + p.amount_house_lateral AS DECIMAL(12,2)),
    p.explanation, p.rule
FROM billing_parcel_inputs AS i
JOIN billing_priced AS p ON p.district = i.district AND p.combo_id = i.combo_id
ORDER BY i.parcel_id, i.district;
