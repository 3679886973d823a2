-- Per billed year: parcels with no bill, and bills of parcels no longer in `parcels`.
WITH years AS (SELECT DISTINCT year FROM sewer_bills)
SELECT y.year, p.parcel_id, 'no bill' AS why
FROM years AS y CROSS JOIN parcels AS p
WHERE NOT EXISTS (SELECT 1 FROM sewer_bills AS b WHERE b.year = y.year AND b.parcel_id = p.parcel_id)
UNION ALL
SELECT b.year, b.parcel_id, 'not in parcels'
FROM sewer_bills AS b
WHERE NOT EXISTS (SELECT 1 FROM parcels AS p WHERE p.parcel_id = b.parcel_id)
ORDER BY 1, 2
LIMIT 100;
