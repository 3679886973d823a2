-- The annual pretreatment report's users of one year ($year): the report's counts with each user's
-- name, address and permit, and its days of discharge without a permit in the year.
WITH users AS (
    SELECT user_id, any_value(name) AS name, any_value(address) AS address, any_value(permit_no) AS permit_no,
           any_value(permit_effective) AS permit_effective, any_value(permit_expires) AS permit_expires
    FROM industrial_users GROUP BY user_id
),
unpermitted AS (
    SELECT user_id, count(*) AS days_without_permit FROM discharges_without_permit
    WHERE year(day) = $year GROUP BY user_id
)
SELECT r.user_id, u.name, u.address, u.permit_no, u.permit_effective, u.permit_expires,
       r.samples, r.violations, r.statistic_violations, r.slugs, r.snc, r.notices_mailed,
       coalesce(w.days_without_permit, 0) AS days_without_permit
FROM pretreatment_annual_report r
LEFT JOIN users u USING (user_id)
LEFT JOIN unpermitted w USING (user_id)
WHERE r.year = $year
ORDER BY r.user_id;
