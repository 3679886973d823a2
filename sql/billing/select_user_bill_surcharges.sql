-- The surcharges of the industrial users linked to premises, each with what it is and its amount (or where
-- the amount is set), for the users' bills.
SELECT
    s.user_id, s.period_start, s.kind, s.parameter, s.pounds, s.gallons_charged, s.amount_usd,
    s.amount_set_by, s.rule
FROM surcharges AS s
WHERE s.user_id IN (SELECT user_id FROM industrial_users WHERE parcel_id IS NOT NULL)
ORDER BY s.user_id, s.period_start, s.kind, s.parameter
