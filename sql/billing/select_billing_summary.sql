-- The whole billing summary.
SELECT * FROM billing_summary ORDER BY year, district, property_class;
