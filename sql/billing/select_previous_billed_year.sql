-- The latest billing year before this one that has a register.
SELECT max(year) FROM sewer_bills WHERE year < $year;
