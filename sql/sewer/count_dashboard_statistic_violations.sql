-- The index page's sewer card: violations of daily maximum and monthly average limits, the users they
-- concern, and those of the year to date (by the statistic's first day, as the annual report counts them).
-- Parameters: $year.
SELECT count(*) AS violations, list(DISTINCT user_id) AS users,
       count(*) FILTER (WHERE year(period_start) = $year) AS year_to_date
FROM statistic_violations;
