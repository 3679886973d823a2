-- Asset check check_validity_permit_day: every day of discharge without a permit lies outside the
-- permit's term and has a sample or a flow reading above 0. The rows that do not.
SELECT count(*)
FROM discharges_without_permit
WHERE NOT (coalesce(day < permit_effective, FALSE) OR coalesce(day > permit_expires, FALSE))
   OR samples + flow_readings = 0;
