-- What the notices list, counted by kind of item (contract 6.1), for the pages' notices panels: a notice's
-- violations are its items, of more kinds than the violations of single samples.
SELECT kind, item, count(*) AS items
FROM notice_items
WHERE notice_status IS DISTINCT FROM 'not_drafted'  -- the items of a notice drafted (contract 8.6)
GROUP BY ALL
ORDER BY ALL;
