-- Rows, parcels and total of one billing year's register.
SELECT count(*) AS rows, count(DISTINCT parcel_id) AS parcels, coalesce(sum(total_usd), 0) AS total_usd
FROM sewer_bills
WHERE year = $year;
