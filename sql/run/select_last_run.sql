-- The fingerprint of the last run that left every table current.
SELECT fingerprint
FROM _last_run;
