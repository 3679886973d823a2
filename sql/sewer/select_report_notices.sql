-- The sewer notices of violation mailed in one year ($year) (contract 5.1), for the annual report.
SELECT recipient_id AS user_id, period, violations, issued_on, correct_by
FROM notices
WHERE kind = 'sewer' AND status = 'mailed' AND year(issued_on) = $year
ORDER BY issued_on, recipient_id, period;
