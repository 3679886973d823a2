-- The annual pretreatment report summed per year (the asset's metadata).
SELECT year, count(*) AS users, count(*) FILTER (WHERE snc) AS in_snc, sum(samples) AS samples,
       sum(violations) AS violations, sum(notices_mailed) AS notices_mailed
FROM pretreatment_annual_report
GROUP BY year
ORDER BY year;
