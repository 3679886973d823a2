-- The months (first local days) whose rows slug detection keeps (its daily statistics and the slugs'
-- starts): a run as of an earlier day than the run that judged them judges them again (nothing, when
-- their readings are after the day; outfall/ingest/as_of.py).
SELECT DISTINCT date_trunc('month', local_day)::DATE AS month FROM slug_daily_stats
UNION
SELECT DISTINCT date_trunc('month', start_at::DATE)::DATE AS month FROM slug_events
ORDER BY month;
