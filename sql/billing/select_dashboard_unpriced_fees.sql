-- Inspection fee applications the fee schedule (the inspection fee law) does not price, for the clerk's page,
-- with the parcel's owner.
SELECT f.permit_id, f.parcel_id, p.owner, f.applied_on, f.rule
FROM inspection_fees AS f
LEFT JOIN (SELECT parcel_id, arg_max(owner, loaded_at) AS owner FROM parcels GROUP BY parcel_id) AS p
    USING (parcel_id)
WHERE f.total_usd IS NULL
ORDER BY f.applied_on, f.permit_id;
