-- Owner and address of the listed parcels.
SELECT parcel_id, arg_max(owner, loaded_at) AS owner, arg_max(address, loaded_at) AS address
FROM parcels
WHERE list_contains($parcel_ids, parcel_id)
GROUP BY parcel_id;
