-- Every year that has rates the Town adopted (sewer_rates). A year of a budget (sewer_budget) is a
-- billing year only where the rules adopt the method of deriving a rate from it
-- (billing.rate_sources): assets/billing/billing.py adds those from select_budget_years.
SELECT DISTINCT year FROM sewer_rates WHERE year IS NOT NULL
ORDER BY year;
