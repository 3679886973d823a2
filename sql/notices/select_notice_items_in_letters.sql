-- The items listed in the letters of mailed notices of one kind ($kind): only these accrue a penalty.
SELECT recipient_id, item, ref, item_on
FROM notice_items
WHERE kind = $kind AND in_letter AND notice_status = 'mailed'
