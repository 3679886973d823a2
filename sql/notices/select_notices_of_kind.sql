-- The notices of one kind ($kind), for the assets that follow each violation up from its notice.
SELECT kind, recipient_id, period, violations, status, issued_on, correct_by, correct_within_days, letter,
       ready_to_send, not_ready_reason
FROM notices WHERE kind = $kind
ORDER BY recipient_id, period
