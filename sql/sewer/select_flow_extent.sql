-- The flow table's rows, newest reading and newest load time.
SELECT count(*), max(ts), max(loaded_at) FROM flow
