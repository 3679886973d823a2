-- A section whose measured infiltration exceeds the allowable rate is a finding.
INSERT INTO infiltration_findings BY NAME
SELECT section_id, test_date, measured_gpd, allowable_gpd, measured_gpd - allowable_gpd AS excess_gpd,
       gpimd,
       'infiltration of ' || round(measured_gpd, 1) || ' gpd exceeds the allowable '
           || round(allowable_gpd, 1) || ' gpd (' || round(gpimd, 1)
           || ' gal per inch-diameter per mile per day)' AS finding,
       rule
FROM infiltration_results
WHERE NOT passes
ORDER BY test_date, section_id
