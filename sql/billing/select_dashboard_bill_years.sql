-- Billing years in the register.
SELECT DISTINCT year FROM sewer_bills WHERE year IS NOT NULL ORDER BY year;
