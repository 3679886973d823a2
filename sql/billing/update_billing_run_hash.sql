-- Seal a billing run: its hash over every other value of the record.
UPDATE billing_runs SET run_hash = $run_hash WHERE run_id = $run_id;
