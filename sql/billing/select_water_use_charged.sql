-- Every billing period of water use (table water_use) with its premises' meter size, whether they are
-- outside the corporate limits and metered (table parcels; parcel_known false when the parcel is not on
-- file), for the sewer charges by volume.
SELECT
    u.parcel_id, u.period_start, u.period_end, u.volume, u.unit,
    p.parcel_id IS NOT NULL AS parcel_known,
    p.meter_size_in,
    coalesce(p.outside_limits, FALSE) AS outside_limits,
    coalesce(p.metered, TRUE) AS metered
FROM water_use AS u
LEFT JOIN parcels AS p ON u.parcel_id = p.parcel_id
ORDER BY u.parcel_id, u.period_start
