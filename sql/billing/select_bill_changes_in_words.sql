-- Every parcel change of one billing run as the clerk reads it (bill_changes_<year>.csv):
-- headers and values in words, the owner beside the parcel, each change said once
-- (the totals are columns of their own). Codes become words through the parallel
-- lists $district_codes / $district_words, $class_codes / $class_words and
-- $change_codes / $change_words (outfall.billing_words). The table bill_changes
-- keeps the codes.
WITH parcel AS (
    SELECT parcel_id, owner
    FROM parcels
    QUALIFY row_number() OVER (PARTITION BY parcel_id ORDER BY loaded_at DESC, source_file, source_row) = 1
)
SELECT
    c.year AS "Billing year",
    c.parcel_id AS "Parcel",
    p.owner AS "Owner",
    CASE WHEN c.compared_to = 'previous_run'
         THEN 'Billing run ' || c.compared_run_id || ' of ' || c.year
         ELSE 'The ' || c.compared_year || ' register' END AS "Compared with",
    coalesce(list_extract($change_words, list_position($change_codes, c.change)), c.change) AS "Change",
    coalesce(list_extract($district_words, list_position($district_codes, c.district_before)),
             c.district_before)
        AS "District before",
    coalesce(list_extract($district_words, list_position($district_codes, c.district_after)),
             c.district_after)
        AS "District now",
    coalesce(list_extract($class_words, list_position($class_codes, c.class_before)), c.class_before)
        AS "Property class before",
    coalesce(list_extract($class_words, list_position($class_codes, c.class_after)), c.class_after)
        AS "Property class now",
    c.units_bond_change AS "Bond units change",
    c.units_om_change AS "Operation and maintenance units change",
    c.units_street_lateral_change AS "Street lateral units change",
    c.units_house_lateral_change AS "House lateral units change",
    c.total_before AS "Total before (USD)",
    c.total_after AS "Total now (USD)",
    c.total_change AS "Change in total (USD)",
    c.rule AS "Law"
FROM bill_changes AS c
LEFT JOIN parcel AS p ON p.parcel_id = c.parcel_id
WHERE c.run_id = $run_id
ORDER BY c.compared_to DESC, c.parcel_id;
