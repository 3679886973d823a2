-- The connection permits asking for water service and sewer lateral inspections (the inspection fee law).
SELECT permit_id, parcel_id, use, in_mall_or_business_park, water, sewer, applied_on
FROM connection_permits
ORDER BY applied_on, permit_id;
