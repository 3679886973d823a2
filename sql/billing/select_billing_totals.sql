-- Units and amounts of one billing year per district and component
-- (parcels_charged: parcels with at least one unit of the component).
SELECT district, component, parcels_charged, units, amount_usd FROM (
    SELECT district, 'bond' AS component, 1 AS ord, count(*) FILTER (WHERE units_bond > 0) AS parcels_charged,
           sum(units_bond) AS units, sum(amount_bond) AS amount_usd
    FROM sewer_bills WHERE year = $year GROUP BY district
    UNION ALL
    SELECT district, 'om', 2, count(*) FILTER (WHERE units_om > 0), sum(units_om), sum(amount_om)
    FROM sewer_bills WHERE year = $year GROUP BY district
    UNION ALL
    SELECT district, 'street_lateral', 3, count(*) FILTER (WHERE units_street_lateral > 0),
           sum(units_street_lateral), sum(amount_street_lateral)
    FROM sewer_bills WHERE year = $year GROUP BY district
    UNION ALL
    SELECT district, 'house_lateral', 4, count(*) FILTER (WHERE units_house_lateral > 0),
           sum(units_house_lateral), sum(amount_house_lateral)
    FROM sewer_bills WHERE year = $year GROUP BY district
)
ORDER BY district, ord;
