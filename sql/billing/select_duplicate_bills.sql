-- Parcels billed more than once in a year.
SELECT year, parcel_id, count(*) AS n
FROM sewer_bills
GROUP BY year, parcel_id
HAVING count(*) > 1
ORDER BY year, parcel_id;
