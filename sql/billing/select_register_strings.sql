-- The distinct texts of one billing year's register that repeat from bill to
-- bill: property classes (kind 'class') and explanations and rules (kind
-- 'text'). The XLSX stores each once (shared strings).
SELECT DISTINCT 'class' AS kind, property_class AS s FROM sewer_bills
WHERE year = $year AND property_class IS NOT NULL
UNION
SELECT 'text', explanation FROM sewer_bills WHERE year = $year AND explanation IS NOT NULL
UNION
SELECT 'text', rule FROM sewer_bills WHERE year = $year AND rule IS NOT NULL
ORDER BY kind, s;
