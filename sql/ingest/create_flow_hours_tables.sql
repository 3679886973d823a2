-- Hourly summaries of flow (outfall/flow_hours.py), so that the checks of a year of readings
-- read 1.7M hours instead of 100M readings, and a run re-reads only the hours new readings touch.
-- Times as integers (microseconds since the epoch) and counts: the same on every run.
-- _flow_hours: per user, constituent and UTC hour (h = epoch microseconds // 3,600,000,000) with
-- a reading: how many readings, the first and the last; the unit, and the sum and number of the
-- values (for the pages' hourly means); and how many values are above 0 (a flow reading above 0 is a
-- discharge, contract 6.5: the days discharged without a permit).
CREATE TABLE IF NOT EXISTS _flow_hours (
    user_id VARCHAR,
    constituent VARCHAR,
    h BIGINT,
    readings BIGINT,
    first_us BIGINT,
    last_us BIGINT,
    unit VARCHAR,
    value_sum DOUBLE,
    valued BIGINT,
    positive BIGINT
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
-- The steps of every series for the gap check (check_freshness_flow_gaps), made from the summaries
-- and then only for the hours appended since (outfall/flow_hours.py: flow_gap_steps).
-- _flow_gap_steps: per user and constituent, every step between consecutive readings by length
-- (within an hour and across hours): how many, and the reading that ends the first of them.
CREATE TABLE IF NOT EXISTS _flow_gap_steps (
    user_id VARCHAR,
    constituent VARCHAR,
    step BIGINT,
    n BIGINT,
    first_end BIGINT
);
-- _flow_gap_series: per user and constituent, the hours and readings they describe, the first
-- reading, and the last hour with its last reading (hours after it are appended ones).
CREATE TABLE IF NOT EXISTS _flow_gap_series (
    user_id VARCHAR,
    constituent VARCHAR,
    hours BIGINT,
    readings BIGINT,
    first_us BIGINT,
    last_h BIGINT,
    last_us BIGINT
);
-- _flow_gap_state: the summaries' state (_flow_hours_state) they describe; no row: made again.
CREATE TABLE IF NOT EXISTS _flow_gap_state (
    flow_rows BIGINT,
    loaded_at TIMESTAMPTZ
);
