-- The items of a mailed notice not yet on record ($document_id), before they are written again.
DELETE FROM main.notice_items_issued
WHERE document_id = $document_id
  AND document_id NOT IN (SELECT document_id FROM main.documents_issued)
