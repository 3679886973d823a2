-- The fingerprint of a run that left every table current.
INSERT INTO _last_run (fingerprint, finished_at)
VALUES ($fingerprint, $finished_at);
