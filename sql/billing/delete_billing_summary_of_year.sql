-- Remove one billing year's summary (rewritten in the same transaction).
DELETE FROM billing_summary WHERE year = $year;
