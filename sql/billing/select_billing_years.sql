-- Every year that has rates: adopted (sewer_rates) or from a budget (sewer_budget).
SELECT year FROM sewer_rates WHERE year IS NOT NULL
UNION
SELECT year FROM sewer_budget WHERE year IS NOT NULL
ORDER BY year;
