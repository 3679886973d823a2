-- Inspection fees per year applied for (the inspection fee law): permits, water and sewer inspections
-- asked for, fees and the permits the schedule does not cover.
SELECT year,
       count(*)::INTEGER AS permits,
       count(*) FILTER (WHERE water)::INTEGER AS water_inspections,
       count(*) FILTER (WHERE sewer)::INTEGER AS sewer_inspections,
       coalesce(sum(water_fee_usd), 0)::DECIMAL(12,2) AS water_fees_usd,
       coalesce(sum(sewer_fee_usd), 0)::DECIMAL(12,2) AS sewer_fees_usd,
       coalesce(sum(total_usd), 0)::DECIMAL(12,2) AS total_usd,
       count(*) FILTER (WHERE total_usd IS NULL)::INTEGER AS not_in_schedule
FROM inspection_fees
GROUP BY year
ORDER BY year;
