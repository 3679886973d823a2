-- Rain per gauge and local day: several rows of one gauge and day (sub-daily data) are summed.
-- Gauge ids are matched without regard to case or surrounding blanks.
SELECT lower(trim(gauge_id)) AS gauge_key, date, sum(precip_in) AS precip_in, count(*) AS readings
FROM rainfall
WHERE gauge_id IS NOT NULL AND date IS NOT NULL AND precip_in IS NOT NULL
GROUP BY ALL
ORDER BY gauge_key, date;
