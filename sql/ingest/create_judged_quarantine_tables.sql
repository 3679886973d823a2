-- Rows that ingestion kept but an asset could not judge (a case dated before its chapter
-- took effect, a payment for a case that is not on file) are set aside in `quarantine` too,
-- with the reason, marked with the asset that judged them (judged_by; NULL for rows
-- rejected while reading the files). The ledger's balance (rows read = kept + quarantined,
-- check_balance_quarantine_rows) counts only the rows rejected while reading.
ALTER TABLE quarantine ADD COLUMN IF NOT EXISTS judged_by VARCHAR;
