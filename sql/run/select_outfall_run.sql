-- The latest run's settings (outfall export copies the pages from where it wrote them).
SELECT as_of, billing_year, data_dir, dashboards_dir, exports_dir, rules_versions
FROM outfall_run;
