-- The permits of every user are rebuilt whole on every run.
DELETE FROM user_permits;
