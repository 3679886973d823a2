-- Every year of a budget (sewer_budget): a billing year only where the rules of the year adopt the
-- method of deriving a rate from it (billing.rate_sources lists sewer_budget).
SELECT DISTINCT year FROM sewer_budget WHERE year IS NOT NULL
ORDER BY year;
