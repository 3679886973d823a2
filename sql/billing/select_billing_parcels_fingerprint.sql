-- The parcels' billing columns in a fixed order: hashed as the run's parcels fingerprint.
SELECT parcel_id, district, property_class, acres, living_units, bathrooms, washing_machines, people, seats,
       moratorium
FROM parcels
ORDER BY parcel_id, district, property_class, acres, living_units, bathrooms, washing_machines, people, seats,
         moratorium;
