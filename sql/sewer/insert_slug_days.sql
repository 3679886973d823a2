-- Daily statistics of each user, constituent and local day from the hourly
-- aggregates: the daily mean (for baselines) and the day's reading spacing
-- spacing, for the usual reading interval: the median over the day's hours of
-- (last - first) / (readings - 1), which is the exact interval in every hour
-- without a gap; a meter reading hourly or slower has no hour with two
-- readings, and then the day's (last - first) / (readings - 1) is used.
INSERT INTO slug_daily_stats BY NAME
SELECT h.user_id, h.constituent, z.local_day, sum(h.readings) AS readings, fsum(h.sum_value) AS sum_value,
       fsum(h.sum_value) / sum(h.readings) AS mean_value, max(h.max_value) AS max_value,
       make_timestamptz(min(h.first_us)) AS first_ts, make_timestamptz(max(h.last_us)) AS last_ts,
       coalesce(
           median(CASE WHEN h.readings >= 2 THEN (h.last_us - h.first_us) / 1e6 / (h.readings - 1) END),
           CASE WHEN sum(h.readings) >= 2
                THEN (max(h.last_us) - min(h.first_us)) / 1e6 / (sum(h.readings) - 1) END) AS spacing_s
FROM slug_hours h JOIN slug_tz_hours z USING (hour_utc)
GROUP BY h.user_id, h.constituent, z.local_day
