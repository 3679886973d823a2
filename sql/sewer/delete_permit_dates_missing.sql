-- The users with no permit term on file are listed anew on every run.
DELETE FROM permit_dates_missing;
