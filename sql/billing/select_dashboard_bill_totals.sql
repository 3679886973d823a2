-- The register summed by year, district and property class (units and amounts per component).
SELECT year, district, property_class, count(*) AS parcels,
       sum(units_bond) AS units_bond, sum(units_om) AS units_om,
       sum(units_street_lateral) AS units_street_lateral, sum(units_house_lateral) AS units_house_lateral,
       sum(amount_bond)::DOUBLE AS amount_bond, sum(amount_om)::DOUBLE AS amount_om,
       sum(amount_street_lateral)::DOUBLE AS amount_street_lateral,
       sum(amount_house_lateral)::DOUBLE AS amount_house_lateral, sum(total_usd)::DOUBLE AS total_usd
FROM sewer_bills
WHERE year = $year OR year = $previous_year
GROUP BY ALL
ORDER BY year, district, property_class;
