-- The index page's sewer card: slug events found in the flow.
SELECT count(*) AS slug_events FROM slug_events;
