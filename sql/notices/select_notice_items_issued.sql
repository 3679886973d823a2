-- The items each mailed notice's letter lists, as written (notice_items_issued).
SELECT document_id, kind, recipient_id, period, item, ref, sub, rule, item_on, known_on, resolved_on,
       description, law
FROM notice_items_issued
ORDER BY document_id, item_on, item, ref, sub
