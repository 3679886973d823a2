-- The index page's sewer card: violations of single samples, the industrial users they concern, those of
-- the year to date (a sample's local day, as the sewer page and the annual report count them), and the
-- days of the first and last sample on file (the period the count covers, as the sewer page states it).
-- Parameters: $year.
SELECT (SELECT count(*) FROM discharge_violations) AS violations,
       (SELECT list(DISTINCT user_id) FROM discharge_violations) AS users,
       (SELECT count(*) FROM discharge_violations WHERE year(collected_at::DATE) = $year) AS year_to_date,
       min(collected_at)::DATE AS first_sample, max(collected_at)::DATE AS last_sample
FROM lab_results
WHERE result IS NOT NULL AND collected_at IS NOT NULL;
