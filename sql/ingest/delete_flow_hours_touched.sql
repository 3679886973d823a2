-- The summaries of the touched hours go; they are made again from flow.
DELETE FROM _flow_hours AS f USING _touched_hours AS t
WHERE f.user_id IS NOT DISTINCT FROM t.user_id AND f.constituent IS NOT DISTINCT FROM t.constituent
    AND f.h = t.h;
DELETE FROM _flow_hour_steps AS f USING _touched_hours AS t
WHERE f.user_id IS NOT DISTINCT FROM t.user_id AND f.constituent IS NOT DISTINCT FROM t.constituent
    AND f.h = t.h;
