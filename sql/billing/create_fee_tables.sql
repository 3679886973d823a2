-- Water and sewer inspection fees (contract 5.5, Woodbury ch. 301), created if missing.

-- Input folder connection_permits (docs/inputs-billing.md; spec in outfall/ingest/stage2_extra.py).
CREATE TABLE IF NOT EXISTS connection_permits (
    permit_id VARCHAR, parcel_id VARCHAR,
    use VARCHAR,                    -- single_family or commercial
    in_mall_or_business_park BOOLEAN, water BOOLEAN, sewer BOOLEAN, applied_on DATE,
    source_file VARCHAR, source_row INTEGER, loaded_at TIMESTAMPTZ, row_hash VARCHAR
);

-- One row per connection permit: the fees of the inspections asked for. Both fees and the
-- total are NULL for a use the schedule does not cover, and `rule` says so.
CREATE TABLE IF NOT EXISTS inspection_fees (
    permit_id VARCHAR, parcel_id VARCHAR, water_fee_usd DECIMAL(12,2), sewer_fee_usd DECIMAL(12,2),
    total_usd DECIMAL(12,2), rule VARCHAR,
    use VARCHAR, in_mall_or_business_park BOOLEAN, water BOOLEAN, sewer BOOLEAN, applied_on DATE,
    year INTEGER                    -- the year applied for (the register's year)
);
