-- The index page's sewer violations, counted as the sewer page lists them whatever the rules hold
-- (contract 8.6; 7.5: a user's violations are the items of its notices): the single samples over a limit,
-- the daily maximums and monthly averages over one, and the notices' other items (a report late or
-- missing, testing missed, a month of discharging without a permit, an excursion); the users they concern
-- and the first and last day of one (the period the count covers, with the samples', as the page says).
-- A violation is counted here whether or not the rules say how to draft its notice.
WITH listed AS (
    SELECT user_id, collected_at::DATE AS day FROM discharge_violations
    UNION ALL
    SELECT user_id, period_end AS day FROM statistic_violations
    UNION ALL
    SELECT recipient_id AS user_id, item_on AS day
    FROM notice_items
    WHERE kind = 'sewer' AND item NOT IN ('sample', 'daily_max', 'monthly_avg')
)
SELECT count(*) AS items, list(DISTINCT user_id) AS recipients, min(day) AS first_day, max(day) AS last_day
FROM listed;
