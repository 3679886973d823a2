-- Notices that need a person: every draft (to mail or withdraw), and every mailed notice the data no
-- longer support, whose month has violations found after it was mailed, or that cannot be mailed as it is.
SELECT kind, recipient_id, period, notice_id, status, recipient_name, violations, letter, issued_on,
       coalesce(needs_review, FALSE) AS needs_review, coalesce(items_unsupported, 0) AS items_unsupported,
       coalesce(items_in_letter, 0) AS items_in_letter,
       coalesce(items_not_in_letter, 0) AS items_not_in_letter,
       coalesce(ready_to_send, FALSE) AS ready_to_send, not_ready_reason
FROM notices
WHERE status = 'draft'
   OR (status = 'mailed' AND (coalesce(needs_review, FALSE) OR coalesce(items_not_in_letter, 0) > 0
                              OR NOT coalesce(ready_to_send, FALSE)))
ORDER BY kind, recipient_id, period
