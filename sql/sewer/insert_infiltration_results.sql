-- Infiltration tests (the sewer use law), each by the infiltration rule in
-- effect on its test date (table infiltration_rules): allowable_gpd = gal x
-- diameter_in x length_ft / feet_per_mile; gpimd = measured_gpd / (diameter_in x
-- length_ft / feet_per_mile); passes when measured_gpd <= allowable_gpd. A test on
-- a day no rule covers is not judged (allowable_gpd, gpimd and passes null).
-- Parameters: $coverage (what the rules give, in words: 'they give one from ...').
INSERT INTO infiltration_results BY NAME
SELECT t.section_id, t.test_date,
       r.gal_per_inch_mile_day * t.diameter_in * t.length_ft / r.feet_per_mile AS allowable_gpd,
       t.measured_gpd,
       t.measured_gpd / nullif(t.diameter_in * t.length_ft / r.feet_per_mile, 0) AS gpimd,
       t.measured_gpd <= r.gal_per_inch_mile_day * t.diameter_in * t.length_ft / r.feet_per_mile AS passes,
       t.diameter_in, t.length_ft,
       coalesce(r.rule, 'not judged: the rules give no infiltration limit in effect on ' || t.test_date
                        || ' (' || $coverage || ')') AS rule
FROM infiltration_tests t
LEFT JOIN infiltration_rules r ON t.test_date BETWEEN r.effective_from AND r.effective_to
ORDER BY t.test_date, t.section_id
