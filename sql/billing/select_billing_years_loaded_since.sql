-- The billing years whose rates or budget rows were loaded or replaced on or after $since; every
-- year that has rates when a parcel was (a parcel is billed in each year).
-- Parameters: $since (an instant: the run's start).
WITH touched AS (
    SELECT year FROM sewer_rates WHERE loaded_at >= $since
    UNION SELECT year FROM sewer_rates_history WHERE superseded_at >= $since
    UNION SELECT year FROM sewer_budget WHERE loaded_at >= $since
    UNION SELECT year FROM sewer_budget_history WHERE superseded_at >= $since
),
parcels_changed AS (
    SELECT (SELECT count(*) FROM parcels WHERE loaded_at >= $since)
         + (SELECT count(*) FROM parcels_history WHERE superseded_at >= $since) > 0 AS changed
),
with_rates AS (
    SELECT year FROM sewer_rates UNION SELECT year FROM sewer_budget
)
SELECT DISTINCT year FROM (
    SELECT year FROM touched
    UNION SELECT year FROM with_rates WHERE (SELECT changed FROM parcels_changed)
)
WHERE year IS NOT NULL AND year IN (SELECT year FROM with_rates)
ORDER BY year;
