-- A few parcels of one combination of billing inputs (to name them in an error).
SELECT parcel_id FROM billing_parcel_inputs WHERE combo_id = $combo_id ORDER BY parcel_id LIMIT 3;
