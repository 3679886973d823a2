-- The first and the last month (first local days) of the readings loaded on or after $since, NULL when
-- none was: the range of month partitions of slug detection that a run's new or changed files touched
-- (a run over that range judges them). The earliest and latest of those instants give it, where the
-- month of each new reading would convert every one's time (6 s for a year of 100M readings).
-- Parameters: $since (an instant: the run's start).
SELECT
    date_trunc('month', min(ts)::DATE)::DATE AS first_month,
    date_trunc('month', max(ts)::DATE)::DATE AS last_month
FROM flow
WHERE loaded_at >= $since;
