-- The months (first local day) of the readings loaded on or after $since: those a run's new or
-- changed files touched, whose month partitions of slug detection are to run.
-- Parameters: $since (an instant: the run's start).
SELECT DISTINCT date_trunc('month', ts::DATE)::DATE AS month
FROM flow
WHERE loaded_at >= $since AND ts IS NOT NULL
ORDER BY month;
