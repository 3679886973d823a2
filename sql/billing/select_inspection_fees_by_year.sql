-- Inspection fees per year: permits, total, and permits the schedule does not price.
SELECT year, count(*) AS permits, sum(total_usd)::DOUBLE AS total_usd,
       count(*) FILTER (WHERE total_usd IS NULL) AS not_priced
FROM inspection_fees
GROUP BY year
ORDER BY year;
