-- The table `notices` (contract 5.1) with exactly the contract's columns, for the annual report to
-- read before the notices asset has written it (run by the report's asset, not by ensure_schema:
-- the notices' own definition, wherever it is, comes first).
CREATE TABLE IF NOT EXISTS notices (
    kind VARCHAR, recipient_id VARCHAR, period VARCHAR, violations INTEGER, status VARCHAR,
    issued_on DATE, correct_by DATE, letter VARCHAR
);
