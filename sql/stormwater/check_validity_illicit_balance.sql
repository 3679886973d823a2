-- Asset check check_validity_illicit_balance: Every charge adds up: the equal installments plus the last make
-- the principal, the balance is principal + interest - payments. Threshold: 0 rows that do not.
-- Severity ERROR.
SELECT case_id
FROM illicit_discharge_charges
WHERE installment_usd * (installments - 1) + last_installment_usd <> principal_usd
   OR principal_usd + interest_usd - paid_usd <> balance_usd
ORDER BY case_id;
