-- Water and sewer inspection fees (contract 5.5, the inspection fee law), created if missing.

-- The input folder connection_permits has its table created from its spec
-- (outfall/ingest/billing.py; outfall.ingest.compile).

-- One row per connection permit: the fees of the inspections asked for. Both fees and the
-- total are NULL for a use the schedule does not cover, and `rule` says so.
CREATE TABLE IF NOT EXISTS inspection_fees (
    permit_id VARCHAR, parcel_id VARCHAR, water_fee_usd DECIMAL(12,2), sewer_fee_usd DECIMAL(12,2),
    total_usd DECIMAL(12,2), rule VARCHAR,
    use VARCHAR, in_mall_or_business_park BOOLEAN, water BOOLEAN, sewer BOOLEAN, applied_on DATE,
    year INTEGER                    -- the year applied for (the register's year)
);
