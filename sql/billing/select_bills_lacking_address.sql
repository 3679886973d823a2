-- The bills of billing year $year (NULL: the last year billed) whose owner's mailing address may not be
-- full (a blank name, street line, city, state or ZIP code, or a state or ZIP code not written as the
-- Postal Service writes them), with the owner and mailing address as the register's mail merge takes
-- them (the street line: mailing_address, else the parcel's address).
-- outfall.register_export.bills_lacking_address words what each lacks by the one address rule.
WITH parcel AS (
    SELECT parcel_id, owner, coalesce(mailing_address, address) AS street, city, state, zip
    FROM parcels
    QUALIFY row_number() OVER (PARTITION BY parcel_id ORDER BY loaded_at DESC, source_file, source_row) = 1
)

SELECT DISTINCT b.year, b.parcel_id, p.owner, p.street, p.city, p.state, p.zip
FROM sewer_bills AS b
LEFT JOIN parcel AS p ON p.parcel_id = b.parcel_id
WHERE
    b.year = coalesce(CAST($year AS INTEGER), (SELECT max(year) FROM sewer_bills))
    AND (
        nullif(trim(p.owner), '') IS NULL OR nullif(trim(p.street), '') IS NULL
        OR nullif(trim(p.city), '') IS NULL
        OR NOT regexp_full_match(trim(coalesce(p.state, '')), '[A-Za-z]{2}')
        OR NOT regexp_full_match(trim(coalesce(p.zip, '')), '\d{5}(-?\d{4})?')
    )
ORDER BY b.parcel_id
