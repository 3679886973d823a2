-- Whether the gap check's steps describe the hourly summaries as they are (outfall/flow_hours.py:
-- flow_gap_steps): 'current', 'appended' (hours were added after each series' last described
-- hour since: nothing else can have changed, or they would have been forgotten) or 'none'; and
-- the earliest of the series' last described hours.
SELECT CASE WHEN (SELECT count(*) FROM _flow_gap_state) <> 1 OR (SELECT count(*) FROM _flow_hours_state) <> 1
            THEN 'none'
            WHEN (SELECT g.flow_rows = s.flow_rows AND g.loaded_at IS NOT DISTINCT FROM s.loaded_at
                  FROM _flow_gap_state AS g, _flow_hours_state AS s) THEN 'current'
            ELSE 'appended' END AS state,
       (SELECT min(last_h) FROM _flow_gap_series) AS after;
