-- The index page's billing card: the total billed and the number of bills of a billing year.
-- Parameters: $year.
SELECT sum(total_usd)::DOUBLE AS billed_usd, count(*) AS bills
FROM sewer_bills
WHERE year = $year;
