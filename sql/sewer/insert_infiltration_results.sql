-- Infiltration tests (Woodbury ch. 253 Part 2; contract section 4):
-- allowable_gpd = 200 x diameter_in x length_ft / 5280; gpimd = measured_gpd /
-- (diameter_in x length_ft / 5280); passes when measured_gpd <= allowable_gpd.
-- Parameters: $gal (gallons per inch-diameter per mile per day), $feet_per_mile, $citation.
INSERT INTO infiltration_results BY NAME
SELECT section_id, test_date,
       $gal * diameter_in * length_ft / $feet_per_mile AS allowable_gpd,
       measured_gpd,
       measured_gpd / nullif(diameter_in * length_ft / $feet_per_mile, 0) AS gpimd,
       measured_gpd <= $gal * diameter_in * length_ft / $feet_per_mile AS passes,
       diameter_in, length_ft, $citation AS rule
FROM infiltration_tests
ORDER BY test_date, section_id
