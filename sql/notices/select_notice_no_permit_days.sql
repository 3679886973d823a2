-- The days behind notice items of kind `no_permit` (contract 6.1): each day of discharges_without_permit
-- (a sample, or a flow reading above 0, while no permit was in effect), grouped by month in Python.
SELECT user_id AS recipient_id, day, finding, samples, flow_readings, permit_no, permit_effective,
       permit_expires, rule
FROM discharges_without_permit
ORDER BY recipient_id, day
