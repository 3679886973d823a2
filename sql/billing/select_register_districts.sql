-- The districts of one billing year's register, with their totals (the
-- totals row under each district sheet).
SELECT
    district, count(*) AS parcels,
    sum(units_bond) AS units_bond, sum(units_om) AS units_om,
    sum(units_street_lateral) AS units_street_lateral, sum(units_house_lateral) AS units_house_lateral,
    sum(amount_bond) AS amount_bond, sum(amount_om) AS amount_om,
    sum(amount_street_lateral) AS amount_street_lateral, sum(amount_house_lateral) AS amount_house_lateral,
    sum(total_usd) AS total_usd
FROM sewer_bills
WHERE year = $year
GROUP BY district
ORDER BY district;
