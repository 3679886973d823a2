-- What the hourly summaries of flow were made from, and what flow is now: its row count and
-- latest load (both from DuckDB's statistics, without reading the readings).
SELECT (SELECT count(*) FROM flow) AS flow_now,
       (SELECT max(loaded_at) FROM flow) AS loaded_now,
       (SELECT s.flow_rows FROM _flow_hours_state AS s LIMIT 1) AS flow_then,
       (SELECT s.loaded_at FROM _flow_hours_state AS s LIMIT 1) AS loaded_then,
       (SELECT count(*) FROM _flow_hours_state) AS states;
