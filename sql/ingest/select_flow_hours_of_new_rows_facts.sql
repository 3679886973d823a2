-- What the staged summaries of a file's new rows (insert_flow_hours.sql, into _new_flow_hours and
-- _new_flow_hour_steps) say of them, for the check of a straight load (outfall/ingest/engine.py):
-- whether two readings share a time (a step of length 0), how many readings have a time, how many
-- series lack a user or constituent, each key column's bounds (user_id, constituent, ts), and
-- whether an hour of them is summarised already (their summaries cannot then simply be added).
SELECT (SELECT count(*) FROM _new_flow_hour_steps WHERE step = 0) AS repeated,
       (SELECT coalesce(sum(readings), 0) FROM _new_flow_hours) AS with_time,
       (SELECT count(*) FROM _new_flow_hours WHERE user_id IS NULL OR constituent IS NULL) AS without_series,
       (SELECT count(*) FROM _new_flow_hours AS n JOIN _flow_hours AS o
          ON o.user_id = n.user_id AND o.constituent = n.constituent AND o.h = n.h) AS hours_summarised,
       min(user_id), max(user_id), min(constituent), max(constituent),
       make_timestamptz(min(first_us)), make_timestamptz(max(last_us))
FROM _new_flow_hours;
