-- Sewer charges by the volume of water used (rules volume_charges; assets/clerk/charges.py): one row per
-- premises and billing period of the water_use folder, the volume (or flat) charge and the fixed charges
-- by meter size, each line explained and cited.
CREATE TABLE IF NOT EXISTS volume_charges (
    parcel_id VARCHAR, period_start DATE, period_end DATE, outside_limits BOOLEAN, metered BOOLEAN,
    meter_size_in DOUBLE, volume DOUBLE, unit VARCHAR, billed_volume DOUBLE, rate_unit VARCHAR,
    usd_per_unit DECIMAL(12, 4), volume_usd DECIMAL(12, 2), minimum_usd DECIMAL(12, 2),
    minimum_applied BOOLEAN, flat_usd DECIMAL(12, 2), fixed_usd DECIMAL(12, 2), total_usd DECIMAL(12, 2),
    explanation VARCHAR, rule VARCHAR
);

-- The fees of the samples the town took (rules fee_schedules that price samples_taken_by_town;
-- assets/clerk/charges.py): one row per sample and item charged (a sampling, a test of one parameter, a
-- preparation of the sample), with the schedule and its citation.
CREATE TABLE IF NOT EXISTS sampling_fees (
    user_id VARCHAR, sample_id VARCHAR, collected_date DATE, schedule VARCHAR, item VARCHAR,
    parameter VARCHAR, usd DECIMAL(12, 2), rule VARCHAR
);
