-- The distinct combinations of billing inputs, one row each.
SELECT DISTINCT combo_id, property_class, acres, living_units, bathrooms, washing_machines, people, seats,
                moratorium
FROM billing_parcel_inputs
ORDER BY combo_id;
