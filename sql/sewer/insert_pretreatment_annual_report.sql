-- The annual pretreatment report (contract 5.6; 40 CFR 403.12(i)): per industrial user and local
-- calendar year with a lab sample, a flow reading or a mailed sewer notice:
--   samples: distinct sample ids collected; violations: rows of discharge_violations;
--   statistic_violations: by period_start's year; slugs: by start_at's local year;
--   snc: a determination of either half of the year names the user;
--   notices_mailed: sewer notices to the user, mailed, issued in the year.
-- Local dates: the connection's time zone is the town's (its rules' timezone).
-- A count of a duty the rules do not judge (contract 8.6: no limits, no slug definition, no criteria of
-- significant noncompliance, no way to issue a notice) is NULL where it would be 0 or false, never a 0
-- or a "no" the rules did not judge: $limits, $slugs, $snc, $notices say which the rules judge.
INSERT INTO pretreatment_annual_report BY NAME
WITH samples AS (
    SELECT user_id, year(coalesce(collected_date, collected_at::DATE)) AS year,
           count(DISTINCT sample_id) AS samples
    FROM lab_results GROUP BY ALL
),
local_years AS (
    -- the local year of each UTC hour with a reading (offsets are whole hours), not of every
    -- reading: the hours of the hourly summaries of flow (outfall/flow_hours.py), each hour's
    -- time zone applied once (8,760 a year), not once per meter
    SELECT h, year(make_timestamptz(h * 3600000000)::DATE) AS year FROM (SELECT DISTINCT h FROM _flow_hours)
),
readings AS (
    SELECT DISTINCT user_id, year FROM _flow_hours JOIN local_years USING (h)
),
mailed AS (
    SELECT recipient_id AS user_id, year(issued_on) AS year, count(*) AS notices_mailed
    FROM notices
    WHERE kind = 'sewer' AND status = 'mailed' AND issued_on IS NOT NULL
    GROUP BY ALL
),
keys AS (
    SELECT user_id, year FROM samples
    UNION SELECT user_id, year FROM readings
    UNION SELECT user_id, year FROM mailed
),
violations AS (
    SELECT user_id, year(collected_at::DATE) AS year, count(*) AS violations
    FROM discharge_violations GROUP BY ALL
),
statistics AS (
    SELECT user_id, year(period_start) AS year, count(*) AS statistic_violations
    FROM statistic_violations GROUP BY ALL
),
slugs AS (
    SELECT user_id, year(start_at::DATE) AS year, count(*) AS slugs FROM slug_events GROUP BY ALL
),
snc AS (
    SELECT DISTINCT user_id, year(period_start) AS year FROM snc_determinations
)
SELECT k.user_id, k.year::INTEGER AS year,
       coalesce(s.samples, 0)::INTEGER AS samples,
       CASE WHEN $limits OR v.violations > 0 THEN coalesce(v.violations, 0) END::INTEGER AS violations,
       CASE WHEN $limits OR t.statistic_violations > 0 THEN coalesce(t.statistic_violations, 0) END::INTEGER
           AS statistic_violations,
       CASE WHEN $slugs OR g.slugs > 0 THEN coalesce(g.slugs, 0) END::INTEGER AS slugs,
       CASE WHEN n.user_id IS NOT NULL THEN TRUE WHEN $snc THEN FALSE END AS snc,
       CASE WHEN $notices OR m.notices_mailed > 0 THEN coalesce(m.notices_mailed, 0) END::INTEGER
           AS notices_mailed
FROM keys k
LEFT JOIN samples s USING (user_id, year)
LEFT JOIN violations v USING (user_id, year)
LEFT JOIN statistics t USING (user_id, year)
LEFT JOIN slugs g USING (user_id, year)
LEFT JOIN snc n USING (user_id, year)
LEFT JOIN mailed m USING (user_id, year)
ORDER BY k.year, k.user_id;
