-- What changed per parcel between a register before (temp table
-- billing_compare_register) and the year's new register in sewer_bills.
-- One row per parcel that changed; the change named is the first that applies:
-- added, removed, reclassed, moved_district, units_up, units_down,
-- units_changed (some up, some down), amount_up, amount_down.
INSERT INTO bill_changes
WITH cur AS (
    SELECT * FROM sewer_bills WHERE year = $year
),
-- ST03 off: sqlfluff cannot parse named's IS DISTINCT FROM, so it does not see joined used.
joined AS (  -- noqa: ST03
    SELECT
        coalesce(c.parcel_id, p.parcel_id) AS parcel_id,
        p.parcel_id IS NULL AS added,
        c.parcel_id IS NULL AS removed,
        p.district AS district_before, c.district AS district_after,
        p.property_class AS class_before, c.property_class AS class_after,
        coalesce(c.units_bond, 0) - coalesce(p.units_bond, 0) AS d_bond,
        coalesce(c.units_om, 0) - coalesce(p.units_om, 0) AS d_om,
        coalesce(c.units_street_lateral, 0) - coalesce(p.units_street_lateral, 0) AS d_street_lateral,
        coalesce(c.units_house_lateral, 0) - coalesce(p.units_house_lateral, 0) AS d_house_lateral,
        p.total_usd AS total_before, c.total_usd AS total_after,
        CAST(coalesce(c.total_usd, 0) - coalesce(p.total_usd, 0) AS DECIMAL(12,2)) AS total_change
    FROM cur AS c
    FULL OUTER JOIN billing_compare_register AS p ON c.parcel_id = p.parcel_id
),
named AS (
    SELECT
        *,
        d_bond + d_om + d_street_lateral + d_house_lateral AS d_units,
        CASE
            WHEN added THEN 'added'
            WHEN removed THEN 'removed'
            WHEN class_before IS DISTINCT FROM class_after THEN 'reclassed'
            WHEN district_before IS DISTINCT FROM district_after THEN 'moved_district'
            WHEN d_bond + d_om + d_street_lateral + d_house_lateral > 0 THEN 'units_up'
            WHEN d_bond + d_om + d_street_lateral + d_house_lateral < 0 THEN 'units_down'
            WHEN d_bond <> 0 OR d_om <> 0 OR d_street_lateral <> 0 OR d_house_lateral <> 0
                THEN 'units_changed'
            WHEN total_after > total_before THEN 'amount_up'
            WHEN total_after < total_before THEN 'amount_down'
        END AS change
    FROM joined
)
SELECT
    $run_id, $year, $compared_to, $compared_run_id, $compared_year,
    parcel_id, change,
    district_before, district_after, class_before, class_after,
    d_bond, d_om, d_street_lateral, d_house_lateral,
    total_before, total_after, total_change,
    concat_ws('; ',
        CASE WHEN added THEN 'new in the register (' || class_after || ', ' || district_after || ')' END,
        CASE WHEN removed
             THEN 'no longer in the register (was ' || class_before || ', ' || district_before || ')' END,
        CASE WHEN NOT added AND NOT removed AND class_before <> class_after
             THEN 'class ' || class_before || ' -> ' || class_after END,
        CASE WHEN NOT added AND NOT removed AND district_before <> district_after
             THEN 'district ' || district_before || ' -> ' || district_after END,
        CASE WHEN d_bond <> 0 THEN 'bond units ' || CASE WHEN d_bond > 0 THEN '+' ELSE '' END || d_bond END,
        CASE WHEN d_om <> 0 THEN 'O&M units ' || CASE WHEN d_om > 0 THEN '+' ELSE '' END || d_om END,
        CASE WHEN d_street_lateral <> 0
             THEN 'street lateral units ' || CASE WHEN d_street_lateral > 0 THEN '+' ELSE '' END
                 || d_street_lateral END,
        CASE WHEN d_house_lateral <> 0
             THEN 'house lateral units ' || CASE WHEN d_house_lateral > 0 THEN '+' ELSE '' END
                 || d_house_lateral END,
        'total ' || coalesce(CAST(total_before AS VARCHAR), '-')
            || ' -> ' || coalesce(CAST(total_after AS VARCHAR), '-')
            || ' USD (' || CASE WHEN total_change > 0 THEN '+' ELSE '' END
            || CAST(total_change AS VARCHAR) || ')'
    ),
    $rule
FROM named
WHERE change IS NOT NULL
ORDER BY parcel_id;
