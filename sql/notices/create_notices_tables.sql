-- Notices of violation, one per kind, recipient and month (contract 5.1). The contract's columns
-- first (kind .. letter), then what the clerk and the pages need: the mailing that counts, whether
-- the notice can be sent and why not, the recipient's mailing address, the day judged.
CREATE TABLE IF NOT EXISTS notices (
    kind VARCHAR, recipient_id VARCHAR, period VARCHAR, violations INTEGER, status VARCHAR,
    issued_on DATE, correct_by DATE, letter VARCHAR
);
-- A table made before these columns existed (the annual report creates the contract's columns
-- alone when it runs first on an old warehouse) gains them here.
ALTER TABLE notices ADD COLUMN IF NOT EXISTS jurisdiction VARCHAR;
ALTER TABLE notices ADD COLUMN IF NOT EXISTS certified_mail_no VARCHAR;
ALTER TABLE notices ADD COLUMN IF NOT EXISTS correct_within_days INTEGER;
ALTER TABLE notices ADD COLUMN IF NOT EXISTS mailings INTEGER;          -- notices_mailed rows matching
ALTER TABLE notices ADD COLUMN IF NOT EXISTS recipient_name VARCHAR;
ALTER TABLE notices ADD COLUMN IF NOT EXISTS mailing_address VARCHAR;   -- the full address, lines joined by '; '
ALTER TABLE notices ADD COLUMN IF NOT EXISTS ready_to_send BOOLEAN;
ALTER TABLE notices ADD COLUMN IF NOT EXISTS not_ready_reason VARCHAR;  -- plain words; NULL when ready
ALTER TABLE notices ADD COLUMN IF NOT EXISTS first_violation_on DATE;
ALTER TABLE notices ADD COLUMN IF NOT EXISTS last_violation_on DATE;
ALTER TABLE notices ADD COLUMN IF NOT EXISTS as_of DATE;
ALTER TABLE notices ADD COLUMN IF NOT EXISTS rule VARCHAR;
