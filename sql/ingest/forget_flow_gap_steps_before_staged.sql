-- A file's staged hours (_new_flow_hours) that are not all after their series' last hour the gap
-- check described (an earlier month sent late, or a new meter): the gap check's steps are made
-- again, from all the summaries, the next time they are read.
DELETE FROM _flow_gap_state
WHERE EXISTS (SELECT 1 FROM _new_flow_hours AS n
              WHERE NOT EXISTS (SELECT 1 FROM _flow_gap_series AS s
                                WHERE s.user_id IS NOT DISTINCT FROM n.user_id
                                  AND s.constituent IS NOT DISTINCT FROM n.constituent
                                  AND n.h > s.last_h));
