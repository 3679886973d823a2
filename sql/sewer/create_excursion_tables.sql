-- Excursions of continuous readings (table flow: a pH or other probe) beyond a limit the law breaks only
-- by an excursion lasting longer than so many minutes (discharge_limit_defaults.excursion_minutes): one
-- row per run of consecutive readings beyond the limit, a violation when it lasts longer than that.
CREATE TABLE IF NOT EXISTS excursion_events (
    user_id VARCHAR, parameter VARCHAR, limit_type VARCHAR, limit_value DOUBLE, unit VARCHAR,
    excursion_minutes DOUBLE, start_at TIMESTAMPTZ, end_at TIMESTAMPTZ, duration_min DOUBLE,
    readings INTEGER, extreme_value DOUBLE, violation BOOLEAN, rule VARCHAR
);
