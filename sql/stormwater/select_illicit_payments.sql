-- Payments toward the cost of abatement of the illicit discharge cases, oldest first.
SELECT case_id, paid_on, amount_usd, receipt_no, source_file, source_row
FROM illicit_payments
ORDER BY case_id, paid_on, source_file, source_row;
