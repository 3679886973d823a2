-- Forget every slug event (a full detection writes them all again).
DELETE FROM slug_events
