-- The previous run's record, replaced by this run's (insert_outfall_run).
DELETE FROM outfall_run;
