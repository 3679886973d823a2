-- Parcels billing cannot take as they are: no parcel_id, no district, or the
-- same parcel_id twice. The parcels ingestion should have kept them out.
SELECT 'no parcel_id' AS problem,
       coalesce(source_file, '?') || ' row ' || coalesce(CAST(source_row AS VARCHAR), '?') AS what
FROM parcels WHERE parcel_id IS NULL OR trim(parcel_id) = ''
UNION ALL
SELECT 'no district', parcel_id FROM parcels WHERE district IS NULL OR trim(district) = ''
UNION ALL
SELECT 'parcel_id appears ' || CAST(count(*) AS VARCHAR) || ' times', parcel_id
FROM parcels WHERE parcel_id IS NOT NULL GROUP BY parcel_id HAVING count(*) > 1
ORDER BY 1, 2
LIMIT 10;
