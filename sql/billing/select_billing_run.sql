-- One billing run's record.
SELECT * FROM billing_runs WHERE run_id = $run_id;
