-- What the last slug detection saw of the flow table (at most one row).
SELECT flow_rows, flow_max_ts, loaded_at, fingerprint FROM slug_state
