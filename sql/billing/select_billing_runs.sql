-- Every billing run, in order (the hash chain).
SELECT * FROM billing_runs ORDER BY run_id;
