-- Hourly summaries of flow (outfall/flow_hours.py), so that the checks of a year of readings
-- read 1.7M hours instead of 100M readings, and a run re-reads only the hours new readings touch.
-- Times as integers (microseconds since the epoch) and counts: the same on every run.
-- _flow_hours: per user, constituent and UTC hour (h = epoch microseconds // 3,600,000,000) with
-- a reading: how many readings, the first and the last; the unit, and the sum and number of the
-- values (for the pages' hourly means).
CREATE TABLE IF NOT EXISTS _flow_hours (
    user_id VARCHAR,
    constituent VARCHAR,
    h BIGINT,
    readings BIGINT,
    first_us BIGINT,
    last_us BIGINT,
    unit VARCHAR,
    value_sum DOUBLE,
    valued BIGINT
);
-- _flow_hour_steps: the steps between consecutive readings within each hour, counted by length,
-- with the reading that ends the first step of that length (a step of length 0 is a time repeated).
CREATE TABLE IF NOT EXISTS _flow_hour_steps (
    user_id VARCHAR,
    constituent VARCHAR,
    h BIGINT,
    step BIGINT,
    steps BIGINT,
    first_end BIGINT
);
-- _flow_hours_state: the flow table the summaries were made from (its row count and latest load).
CREATE TABLE IF NOT EXISTS _flow_hours_state (
    flow_rows BIGINT,
    loaded_at TIMESTAMPTZ
);
