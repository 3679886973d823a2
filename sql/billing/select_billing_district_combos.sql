-- How many parcels of each district share each combination of billing inputs.
SELECT district, combo_id, count(*) AS parcels
FROM billing_parcel_inputs
GROUP BY district, combo_id
ORDER BY district, combo_id;
