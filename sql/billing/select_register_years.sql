-- The billing years that have a register.
SELECT DISTINCT year FROM sewer_bills WHERE year IS NOT NULL ORDER BY year;
