-- Inspection fee applications the fee schedule (Woodbury ch. 301) does not price, for the clerk's page.
SELECT permit_id, parcel_id, applied_on, rule
FROM inspection_fees
WHERE total_usd IS NULL
ORDER BY applied_on, permit_id;
