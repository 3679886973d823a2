-- The annual pretreatment report's users of one year ($year): the report's counts with each user's
-- name and address, its permits in force during the year (user_permits, contract 8.2: their numbers, and
-- their terms in words, oldest first), and its days of discharge without a permit in the year.
WITH users AS (
    SELECT user_id, any_value(name) AS name, any_value(address) AS address
    FROM industrial_users GROUP BY user_id
),
held AS (
    SELECT user_id,
           string_agg(permit_no, ', ' ORDER BY effective_on NULLS FIRST, permit_no) AS permit_no,
           min(effective_on) AS permit_effective, max(expires_on) AS permit_expires,
           string_agg(
               coalesce(strftime(effective_on, '%Y-%m-%d'), '…') || ' to '
               || coalesce(strftime(expires_on, '%Y-%m-%d'), '…'),
               '; ' ORDER BY effective_on NULLS FIRST, permit_no
           ) FILTER (WHERE effective_on IS NOT NULL OR expires_on IS NOT NULL) AS permit_terms
    FROM user_permits
    WHERE status = 'in_force'
          AND coalesce(effective_on, DATE '0001-01-01') <= make_date($year, 12, 31)
          AND coalesce(expires_on, DATE '9999-12-31') >= make_date($year, 1, 1)
    GROUP BY user_id
),
unpermitted AS (
    SELECT user_id, count(*) AS days_without_permit FROM discharges_without_permit
    WHERE year(day) = $year GROUP BY user_id
)
SELECT r.user_id, u.name, u.address, h.permit_no, h.permit_effective, h.permit_expires, h.permit_terms,
       r.samples, r.violations, r.statistic_violations, r.slugs, r.snc, r.notices_mailed,
       coalesce(w.days_without_permit, 0) AS days_without_permit
FROM pretreatment_annual_report r
LEFT JOIN users u USING (user_id)
LEFT JOIN held h USING (user_id)
LEFT JOIN unpermitted w USING (user_id)
WHERE r.year = $year
ORDER BY r.user_id;
