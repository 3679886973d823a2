-- check_uniqueness_flow_key, first from the hourly summaries of flow: two readings of one user,
-- constituent and time fall in the same hour, one step of length 0 apart, so there is none unless
-- an hour has such a step (or readings have no time); only then is flow itself searched.
SELECT (SELECT count(*) FROM _flow_hour_steps WHERE step = 0) AS hours_with_repeats,
       (SELECT count(*) - count(ts) FROM flow) AS readings_without_time;
