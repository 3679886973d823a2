-- One billing year's register summed by district and property class.
INSERT INTO billing_summary
SELECT
    year, district, property_class,
    count(*) AS parcels,
    sum(units_bond), sum(units_om), sum(units_street_lateral), sum(units_house_lateral),
    sum(amount_bond), sum(amount_om), sum(amount_street_lateral), sum(amount_house_lateral),
    sum(total_usd),
    $run_id,
    $rule
FROM sewer_bills
WHERE year = $year
GROUP BY year, district, property_class
ORDER BY district, property_class;
