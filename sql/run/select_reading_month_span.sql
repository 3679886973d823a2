-- The first and the last month that have readings (the first local day of each; the connection's time
-- zone is the town's), NULL without readings. The earliest and latest instants give them: DuckDB answers
-- min and max from each row group's statistics, where the months of every reading would convert every
-- reading's time (a second for ten million readings, on every run).
SELECT
    date_trunc('month', min(ts)::DATE)::DATE AS first_month,
    date_trunc('month', max(ts)::DATE)::DATE AS last_month
FROM flow;
