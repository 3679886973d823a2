-- Every reading of one series inside a slug event or within $pad_hours of one (local time).
SELECT DISTINCT timezone($tz, f.ts) AS ts, f.value
FROM flow f
JOIN slug_events s
  ON f.user_id = s.user_id AND f.constituent = s.constituent
 AND f.ts BETWEEN s.start_at - to_hours(CAST($pad_hours AS BIGINT)) AND s.end_at + to_hours(CAST($pad_hours AS BIGINT))
WHERE f.user_id = $user_id AND f.constituent = $constituent AND f.value IS NOT NULL
ORDER BY 1;
