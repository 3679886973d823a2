-- The jurisdiction whose rules the last billing run used.
SELECT rules_jurisdiction FROM billing_runs ORDER BY run_id DESC LIMIT 1;
