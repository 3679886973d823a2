-- The record of one billing year's latest run (the one that produced its register).
SELECT * FROM billing_runs WHERE year = $year ORDER BY run_id DESC LIMIT 1;
