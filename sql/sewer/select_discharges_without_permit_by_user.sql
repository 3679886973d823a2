-- Days of discharge without a permit per user and finding, with the first and last day.
SELECT user_id, finding, count(*) AS days, min(day) AS first_day, max(day) AS last_day
FROM discharges_without_permit
GROUP BY user_id, finding
ORDER BY user_id, finding;
