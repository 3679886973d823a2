-- Every parcel change of one run.
SELECT * FROM bill_changes WHERE run_id = $run_id ORDER BY compared_to DESC, parcel_id;
