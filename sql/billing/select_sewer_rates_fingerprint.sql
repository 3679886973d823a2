-- The year's sewer_rates rows in a fixed order: hashed as the run's rates fingerprint.
SELECT year, district, component, rate_per_unit
FROM sewer_rates
WHERE year = $year
ORDER BY district, component, rate_per_unit;
