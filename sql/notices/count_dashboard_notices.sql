-- The index page's cards: the monthly notices of violation of one kind, how many are mailed and drafts,
-- how many violations (items) they list, and the first and last month. Parameters: $kind ('sewer' or
-- 'stormwater').
SELECT count(*) AS notices,
       count(*) FILTER (WHERE status = 'mailed') AS mailed,
       count(*) FILTER (WHERE status = 'draft') AS drafts,
       coalesce(sum(violations), 0) AS items,
       min(period) AS first_month, max(period) AS last_month
FROM notices
WHERE kind = $kind;
