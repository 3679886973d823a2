-- The index page's violations of one kind of notice ($kind): the items of the notices (contract 7.5: a
-- recipient's violations are its notice items, one count on every page), the recipients they concern and
-- the first and last day of an item (the period the count covers, with the samples', as the page says).
SELECT count(*) AS items, list(DISTINCT recipient_id) AS recipients, min(item_on) AS first_day,
       max(item_on) AS last_day
FROM notice_items
WHERE kind = $kind;
