-- Forget the last run's fingerprint (before recording a new one, or when a run left a table behind).
DELETE FROM _last_run;
