-- The districts of one billing year's register.
SELECT DISTINCT district FROM sewer_bills WHERE year = $year ORDER BY district;
