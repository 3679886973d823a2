-- Mailed notices that need their person again: the data no longer support every item the letter lists
-- (contract 6.2), or violations of its month were found after it was mailed. (A draft is in
-- select_worklist_drafts; a mailed notice is a record, whatever its address: nothing to complete.)
SELECT kind, recipient_id, period, notice_id, status, recipient_name, violations, letter, issued_on,
       coalesce(needs_review, FALSE) AS needs_review, coalesce(items_unsupported, 0) AS items_unsupported,
       coalesce(items_in_letter, 0) AS items_in_letter,
       coalesce(items_not_in_letter, 0) AS items_not_in_letter
FROM notices
WHERE status = 'mailed' AND (coalesce(needs_review, FALSE) OR coalesce(items_not_in_letter, 0) > 0)
ORDER BY kind, recipient_id, period
