-- Asset check check_validity_permit_day: every day of discharge without a permit lies outside the term of
-- every permit of its user in force (user_permits, contract 8.2) and has a sample or a flow reading above 0.
-- The rows that do not.
SELECT count(*)
FROM discharges_without_permit AS d
WHERE d.samples + d.flow_readings = 0
      OR EXISTS (
          SELECT 1 FROM user_permits AS p
          WHERE p.user_id = d.user_id AND p.status = 'in_force'
                AND (p.effective_on IS NOT NULL OR p.expires_on IS NOT NULL)
                AND (p.effective_on IS NULL OR d.day >= p.effective_on)
                AND (p.expires_on IS NULL OR d.day <= p.expires_on)
      );
