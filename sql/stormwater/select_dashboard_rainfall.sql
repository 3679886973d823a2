-- Daily rain per gauge (sub-daily rows summed); gauge ids matched without case or blanks.
SELECT lower(trim(gauge_id)) AS gauge_key, date, sum(precip_in) AS precip_in
FROM rainfall
WHERE gauge_id IS NOT NULL AND date IS NOT NULL AND precip_in IS NOT NULL
GROUP BY ALL
ORDER BY gauge_key, date;
