-- Each parcel's billing inputs (temp table billing_parcel_inputs), with the
-- counts its class's unit rule does not read blanked, numbered by distinct
-- combination (combo_id) so that the unit rule runs once per combination.
-- $<field>_classes: the property classes whose rule reads <field>.
CREATE OR REPLACE TEMP TABLE billing_parcel_inputs AS
WITH inputs AS (
    SELECT
        parcel_id,
        district,
        property_class,
        CASE WHEN list_contains($acres_classes, property_class) THEN acres END AS acres,
        CASE WHEN list_contains($living_units_classes, property_class) THEN living_units END AS living_units,
        CASE WHEN list_contains($bathrooms_classes, property_class) THEN bathrooms END AS bathrooms,
        CASE WHEN list_contains($washing_machines_classes, property_class)
            THEN washing_machines END AS washing_machines,
        CASE WHEN list_contains($people_classes, property_class) THEN people END AS people,
        CASE WHEN list_contains($seats_classes, property_class) THEN seats END AS seats,
        coalesce(moratorium, FALSE) AS moratorium
    FROM parcels
)
SELECT
    *,
    dense_rank() OVER (
        ORDER BY property_class, acres, living_units, bathrooms, washing_machines, people, seats, moratorium
    ) AS combo_id
FROM inputs;
