-- How many excursions were found, and how many of them are violations.
SELECT count(*) AS excursions, count(*) FILTER (WHERE violation) AS violations
FROM excursion_events
