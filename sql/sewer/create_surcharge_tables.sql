-- The surcharges (table surcharges, sql/sewer/create_enforcement_tables.sql) of every kind the rules
-- give: by the pounds above a limit (kind 'pounds'), per volume ('volume') or per strength ('strength'),
-- with the factor of a user's attribute (outside the corporate limits) and the amount before it.
ALTER TABLE surcharges ADD COLUMN IF NOT EXISTS kind VARCHAR;
ALTER TABLE surcharges ADD COLUMN IF NOT EXISTS outside_limits BOOLEAN;
ALTER TABLE surcharges ADD COLUMN IF NOT EXISTS base_amount_usd DECIMAL(12, 2);
ALTER TABLE surcharges ADD COLUMN IF NOT EXISTS multiplier DECIMAL(12, 6);
