-- The months that have readings: the first local day of each (the connection's time zone is the town's).
SELECT DISTINCT date_trunc('month', ts::DATE)::DATE AS month
FROM flow
WHERE ts IS NOT NULL
ORDER BY month;
