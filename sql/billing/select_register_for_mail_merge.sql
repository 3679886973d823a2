-- One billing year's register as the clerk reads it and as a mail merge takes it
-- (sewer_register_<year>.csv): headers in words, the owner and the mailing address
-- in their own columns, districts, classes in words. The parcels input's
-- mailing_address is the street line (blank: the parcel's address); city, state
-- and zip are left blank when the parcels input lacks them. Codes become words
-- through the parallel lists $district_codes / $district_words and
-- $class_codes / $class_words (outfall.billing_words). Same order as the bills.
WITH parcel AS (
    SELECT parcel_id, owner, coalesce(mailing_address, address) AS street, city, state, zip
    FROM parcels
    QUALIFY row_number() OVER (PARTITION BY parcel_id ORDER BY loaded_at DESC, source_file, source_row) = 1
)
SELECT
    b.year AS "Billing year",
    b.parcel_id AS "Parcel",
    p.owner AS "Owner",
    p.street AS "Mailing address",
    p.city AS "City",
    p.state AS "State",
    p.zip AS "ZIP",
    coalesce(list_extract($district_words, list_position($district_codes, b.district)),
             b.district) AS "District",
    coalesce(list_extract($class_words, list_position($class_codes, b.property_class)), b.property_class)
        AS "Property class",
    b.units_bond AS "Bond units",
    b.units_om AS "Operation and maintenance units",
    b.units_street_lateral AS "Street lateral units",
    b.units_house_lateral AS "House lateral units",
    b.amount_bond AS "Bond amount (USD)",
    b.amount_om AS "Operation and maintenance amount (USD)",
    b.amount_street_lateral AS "Street lateral amount (USD)",
    b.amount_house_lateral AS "House lateral amount (USD)",
    b.total_usd AS "Total (USD)",
    b.explanation AS "How the units were counted",
    b.rule AS "Law"
FROM sewer_bills AS b
LEFT JOIN parcel AS p ON p.parcel_id = b.parcel_id
WHERE b.year = $year
ORDER BY b.parcel_id, b.district;
