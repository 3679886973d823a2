-- Every month that has a reading (its first local day; the connection's time zone is the town's): the
-- month partitions of slug detection. Read from the hourly summaries of flow (outfall/flow_hours.py,
-- brought up to date first), whose hours stand for the readings: 1.7M hours for a year of 100M
-- readings. An hour of a time zone whose offsets are whole hours lies within one local day.
WITH hours AS (
    SELECT DISTINCT h FROM _flow_hours
)

SELECT DISTINCT date_trunc('month', make_timestamptz(h * 3600000000)::DATE)::DATE AS month
FROM hours
ORDER BY month;
