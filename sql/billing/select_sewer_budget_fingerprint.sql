-- The year's sewer_budget rows in a fixed order: hashed as the run's budget fingerprint.
SELECT year, district, component, amount
FROM sewer_budget
WHERE year = $year
ORDER BY district, component, amount;
