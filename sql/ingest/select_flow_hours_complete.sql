-- Whether the summaries count every reading with a time: readings that were removed (a file
-- re-sent without them) or written without a load time leave the counts short or long, and the
-- summaries are then made again in full.
SELECT (SELECT coalesce(sum(readings), 0) FROM _flow_hours) = (SELECT count(ts) FROM flow) AS complete,
       (SELECT epoch_us(min(ts)) // 3600000000 FROM flow) AS lo,
       (SELECT epoch_us(max(ts)) // 3600000000 FROM flow) AS hi;
