-- The record of one billing run (run_hash is set by update_billing_run_hash).
INSERT INTO billing_runs (
    run_id, year, run_at, rules_jurisdiction, rules_version, rules_sha256,
    parcels_sha256, rates_sha256, budget_sha256, inputs_sha256, rate_source, rates_json, totals_json,
    parcels_billed, total_usd, register_sha256, register_rows, previous_run_id, compared_year,
    changes_vs_previous_run, changes_vs_previous_year, previous_run_hash, run_hash, rule
)
VALUES (
    $run_id, $year, CAST($run_at AS TIMESTAMPTZ), $rules_jurisdiction, $rules_version, $rules_sha256,
    $parcels_sha256, $rates_sha256, $budget_sha256, $inputs_sha256, $rate_source, $rates_json, $totals_json,
    $parcels_billed, CAST($total_usd AS DECIMAL(12,2)), $register_sha256, $register_rows, $previous_run_id,
    $compared_year, $changes_vs_previous_run, $changes_vs_previous_year, $previous_run_hash, NULL, $rule
);
