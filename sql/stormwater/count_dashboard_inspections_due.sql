-- The index page's stormwater card: inspections due by a day (the as-of day plus a week).
-- Parameters: $due_by.
SELECT count(*) AS due FROM swppp_upcoming WHERE due_by <= $due_by;
