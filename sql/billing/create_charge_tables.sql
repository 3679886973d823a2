-- Sewer charges by the volume of water used (rules volume_charges; assets/billing/charges.py): one row per
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
-- assets/billing/charges.py): one row per sample and item charged (a sampling, a test of one parameter, a
-- preparation of the sample), with the schedule and its citation.
CREATE TABLE IF NOT EXISTS sampling_fees (
    user_id VARCHAR, sample_id VARCHAR, collected_date DATE, schedule VARCHAR, item VARCHAR,
    parameter VARCHAR, usd DECIMAL(12, 2), rule VARCHAR
);

-- The bills of industrial users linked to premises (industrial_users.parcel_id; assets/billing/charges.py):
-- per user and billing period of its premises' sewer charges (table volume_charges), the fixed charges, the
-- volume (or least, or flat) charge and the user's surcharges of the months the period holds (table
-- surcharges), each shown; total_usd is their sum, null while a surcharge's amount is set in another
-- document (surcharges_set_by says where).
CREATE TABLE IF NOT EXISTS user_bills (
    user_id VARCHAR, name VARCHAR, parcel_id VARCHAR, period_start DATE, period_end DATE,
    fixed_usd DECIMAL(12, 2), volume_usd DECIMAL(12, 2), surcharges_usd DECIMAL(12, 2),
    surcharges INTEGER, surcharges_set_by VARCHAR, total_usd DECIMAL(12, 2), explanation VARCHAR, rule VARCHAR
);

-- Where the amounts of a period's charges are set when the rules give them as set in another document (its
-- total is then not computed, never 0).
ALTER TABLE volume_charges ADD COLUMN IF NOT EXISTS amounts_set_by VARCHAR;
