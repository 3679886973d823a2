-- The hours whose summaries are out of date: those with a reading loaded after $since (a new
-- file, or a corrected re-send that superseded readings).
CREATE OR REPLACE TEMP TABLE _touched_hours AS
SELECT DISTINCT user_id, constituent, epoch_us(ts) // 3600000000 AS h
FROM flow
WHERE loaded_at > $since AND ts IS NOT NULL;
