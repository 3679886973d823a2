-- The condition that keeps, of flow AS f, the readings of the touched hours (_touched_hours);
-- put into insert_flow_hours.sql when only those hours are made again.
AND EXISTS (SELECT 1 FROM _touched_hours AS x
            WHERE x.user_id IS NOT DISTINCT FROM f.user_id
                AND x.constituent IS NOT DISTINCT FROM f.constituent
              AND x.h = epoch_us(f.ts) // 3600000000)
