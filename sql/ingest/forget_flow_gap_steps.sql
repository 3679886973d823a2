-- The gap check's steps forgotten, to be made anew from every hour (append_flow_gap_steps.sql).
DELETE FROM _flow_gap_steps;
DELETE FROM _flow_gap_series;
DELETE FROM _flow_gap_state;
