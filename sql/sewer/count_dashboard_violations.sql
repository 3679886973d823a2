-- The index page's sewer card: discharge violations, and how many industrial users they concern.
SELECT count(*) AS violations, count(DISTINCT user_id) AS users
FROM discharge_violations;
