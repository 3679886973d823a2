-- The billing page's bills of industrial users linked to premises (table user_bills), latest period first.
SELECT
    user_id, name, parcel_id, period_start, period_end, fixed_usd, volume_usd, surcharges_usd,
    surcharges_set_by, total_usd, explanation, rule
FROM user_bills
ORDER BY period_start DESC, user_id
