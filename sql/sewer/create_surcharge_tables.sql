-- The surcharges (table surcharges, sql/sewer/create_enforcement_tables.sql) of every kind the rules
-- give: by the pounds above a threshold or limit (kind 'pounds'), per volume ('volume'), per strength
-- ('strength') or by flow ('flow'),
-- with the factor of a user's attribute (outside the corporate limits) and the amount before it.
ALTER TABLE surcharges ADD COLUMN IF NOT EXISTS kind VARCHAR;
ALTER TABLE surcharges ADD COLUMN IF NOT EXISTS outside_limits BOOLEAN;
ALTER TABLE surcharges ADD COLUMN IF NOT EXISTS base_amount_usd DECIMAL(12, 2);
ALTER TABLE surcharges ADD COLUMN IF NOT EXISTS multiplier DECIMAL(12, 6);
-- What a surcharge by the pound counts from ('surcharge threshold' or 'limit'), where an amount is set when
-- the rules give it as set in another document (its amount is then not computed, never 0), and for a
-- surcharge triggered by flow ('flow') the month's average gallons a day and the gallons charged.
ALTER TABLE surcharges ADD COLUMN IF NOT EXISTS threshold_kind VARCHAR;
ALTER TABLE surcharges ADD COLUMN IF NOT EXISTS amount_set_by VARCHAR;
ALTER TABLE surcharges ADD COLUMN IF NOT EXISTS average_gpd DOUBLE;
ALTER TABLE surcharges ADD COLUMN IF NOT EXISTS gallons_charged DOUBLE;
