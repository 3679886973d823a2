-- The illicit discharge cases' tables (contract 5.3, the illicit discharge law), created if missing; written
-- by assets/stormwater/illicit.py. Every row names its rule (citation from
-- rules/<jurisdiction>.yaml). The input folders illicit_discharges and illicit_payments have their
-- tables made from their specs (outfall/ingest/stormwater.py; outfall.ingest.compile).

-- One row per obligation of a case whose trigger exists (contract 5.3).
CREATE TABLE IF NOT EXISTS illicit_discharge_deadlines (
    case_id VARCHAR, obligation VARCHAR, due DATE, satisfied_on DATE,
    status VARCHAR,                 -- met, late, open, overdue; suspended (abatement,
                                    -- appeal pending; due NULL)
    rule VARCHAR,
    premises VARCHAR, days_late INTEGER, as_of DATE
);

-- One row per case with an abatement cost (contract 5.3): installments, interest, balance.
CREATE TABLE IF NOT EXISTS illicit_discharge_charges (
    case_id VARCHAR, principal_usd DECIMAL(12,2), installments INTEGER,
    installment_usd DECIMAL(12,2), last_installment_usd DECIMAL(12,2),
    interest_from DATE, interest_usd DECIMAL(12,2),
    balance_usd DECIMAL(12,2),      -- below zero: paid beyond the amount owed
    max_penalty_usd DECIMAL(12,2),
    paid_usd DECIMAL(12,2), penalty_days INTEGER, as_of DATE, rule VARCHAR
);

-- The letters of the cases (notice of violation, notice of the cost of abatement), as written.
CREATE TABLE IF NOT EXISTS illicit_discharge_letters (
    case_id VARCHAR, kind VARCHAR, letter_file VARCHAR, dated DATE, draft BOOLEAN,
    ready_to_mail BOOLEAN, not_ready VARCHAR, sha256 VARCHAR, html VARCHAR
);
