-- Notice items of kinds `daily_max` and `monthly_avg` (contract 6.1): each row of statistic_violations,
-- in the month of its period_end, known on that day (a month's average once the month has ended).
SELECT user_id AS recipient_id, statistic AS item, strftime(period_start, '%Y-%m-%d') AS ref, rule,
       period_end AS month_day, period_end AS known_on, NULL::DATE AS resolved_on,
       parameter, period_start, period_end, value, limit_value, unit, samples
FROM statistic_violations
ORDER BY recipient_id, item, period_start, parameter
