-- The distinct texts of one billing year's register that repeat from bill to
-- bill (class, explanation, rule): the XLSX stores each once (shared strings).
SELECT s FROM (
    SELECT property_class AS s FROM sewer_bills WHERE year = $year
    UNION SELECT explanation FROM sewer_bills WHERE year = $year
    UNION SELECT rule FROM sewer_bills WHERE year = $year
)
WHERE s IS NOT NULL
ORDER BY s;
