-- The record of this run (after delete_outfall_run: it replaces the previous run's).
INSERT INTO outfall_run (as_of, billing_year, data_dir, dashboards_dir, exports_dir, rules_versions)
VALUES ($as_of, $billing_year, $data_dir, $dashboards_dir, $exports_dir, $rules_versions);
