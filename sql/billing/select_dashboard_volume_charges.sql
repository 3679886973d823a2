-- The billing page's sewer charges by volume: every premises and period charged (table volume_charges),
-- with the owner and address of the parcel, latest period first.
SELECT
    c.parcel_id, p.owner, p.address, c.period_start, c.period_end, c.outside_limits, c.metered,
    c.billed_volume, c.rate_unit, c.usd_per_unit, c.volume_usd, c.minimum_applied, c.flat_usd, c.fixed_usd,
    c.total_usd, c.explanation, c.rule
FROM volume_charges AS c
LEFT JOIN parcels AS p ON c.parcel_id = p.parcel_id
ORDER BY c.period_start DESC, c.parcel_id
