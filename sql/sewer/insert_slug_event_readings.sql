-- Every reading with a value from $pad_hours before each slug of _slug_context_todo to $pad_hours
-- after it, and whether it lies inside the slug. $scan_from: the earliest padded start (readings
-- before it are not read).
INSERT INTO _slug_event_readings (user_id, constituent, start_at, end_at, pad_hours, ts, value, inside)
SELECT s.user_id, s.constituent, s.start_at, s.end_at, $pad_hours, f.ts, f.value,
       f.ts BETWEEN s.start_at AND s.end_at
FROM flow f
-- each slug once per UTC hour it touches, padded: readings are matched on their series and
-- hour, an equality (cheaper than a range join of every reading with every slug of its series)
JOIN (SELECT s.*,
             unnest(range(epoch_us(s.start_at - to_hours(CAST($pad_hours AS BIGINT))) // 3600000000,
                          epoch_us(s.end_at + to_hours(CAST($pad_hours AS BIGINT))) // 3600000000 + 1)) AS h
      FROM _slug_context_todo s) s
  ON f.user_id = s.user_id AND f.constituent = s.constituent AND epoch_us(f.ts) // 3600000000 = s.h
 AND f.ts BETWEEN s.start_at - to_hours(CAST($pad_hours AS BIGINT))
              AND s.end_at + to_hours(CAST($pad_hours AS BIGINT))
WHERE f.value IS NOT NULL AND f.ts >= $scan_from;
