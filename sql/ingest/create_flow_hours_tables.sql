-- Hourly summaries of flow (outfall/flow_hours.py), so that the checks of a year of readings
-- read 1.7M hours instead of 100M readings, and a run re-reads only the hours new readings touch.
-- Integers only (microseconds since the epoch, counts): the same on every run.
-- _flow_hours: per user, constituent and UTC hour (h = epoch microseconds // 3,600,000,000) with
-- a reading: readings, distinct times, first and last reading, the largest step between two
-- readings of the hour and the reading that ends the earliest such step.
CREATE TABLE IF NOT EXISTS _flow_hours (
    user_id VARCHAR,
    constituent VARCHAR,
    h BIGINT,
    readings BIGINT,
    distinct_times BIGINT,
    first_us BIGINT,
    last_us BIGINT,
    step_max BIGINT,
    step_max_to BIGINT
);
-- _flow_hour_steps: the steps between consecutive readings within each hour, counted by length.
CREATE TABLE IF NOT EXISTS _flow_hour_steps (
    user_id VARCHAR,
    constituent VARCHAR,
    h BIGINT,
    step BIGINT,
    steps BIGINT
);
-- _flow_hours_state: the flow table the summaries were made from (its row count and latest load).
CREATE TABLE IF NOT EXISTS _flow_hours_state (
    flow_rows BIGINT,
    loaded_at TIMESTAMPTZ
);
