-- check_referential_flow_user, first from the hourly summaries of flow (outfall/flow_hours.py):
-- every reading with a time has its user in them, so no reading belongs to an unknown user unless
-- a user of the summaries is unknown (or readings have no time); only then is flow itself searched.
SELECT (SELECT count(*) FROM (SELECT DISTINCT user_id FROM _flow_hours) AS h
        WHERE NOT EXISTS (SELECT 1 FROM industrial_users AS u WHERE u.user_id = h.user_id)) AS unknown_users,
       (SELECT count(*) - count(ts) FROM flow) AS readings_without_time;
