-- Remove one billing year's register (it is rewritten in the same transaction).
DELETE FROM sewer_bills WHERE year = $year;
