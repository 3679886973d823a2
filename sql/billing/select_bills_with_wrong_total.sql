-- Bills whose total is not the sum of their four amounts.
SELECT year, parcel_id
FROM sewer_bills
WHERE total_usd IS DISTINCT FROM amount_bond + amount_om + amount_street_lateral + amount_house_lateral
ORDER BY year, parcel_id;
