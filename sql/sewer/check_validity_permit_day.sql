-- Asset check check_validity_permit_day: every day of discharge without a permit lies outside the
-- permit's term (or the user never held a permit: finding never_permitted, no number and no dates) and
-- has a sample or a flow reading above 0. The rows that do not.
SELECT count(*)
FROM discharges_without_permit
WHERE NOT (coalesce(day < permit_effective, FALSE) OR coalesce(day > permit_expires, FALSE)
           OR (finding = 'never_permitted' AND permit_effective IS NULL AND permit_expires IS NULL
               AND nullif(trim(permit_no), '') IS NULL))
   OR samples + flow_readings = 0;
