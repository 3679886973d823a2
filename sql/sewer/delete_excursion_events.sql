-- Empty excursion_events before it is written again (one transaction with the insert).
DELETE FROM excursion_events
