"""The contract's billing input folders (section 2): parcels and sewer_rates, registered on import
(``outfall.ingest.spec.register``)."""

from __future__ import annotations

from dataclasses import replace

from outfall.ingest.parse import lit
from outfall.ingest.spec import (
    BY_HAND,
    COMPONENT_VOCAB,
    MAILING_COLUMNS,
    PROPERTY_CLASS_VOCAB,
    TOWN_CODES,
    Column,
    Context,
    Dataset,
    Step,
    district_column,
    enum_column,
    register,
)

_PARCEL_COUNTS = ("acres", "living_units", "bathrooms", "washing_machines", "people", "seats")


def _parcel_steps(ctx: Context) -> tuple[Step, ...]:
    """Each property class's required counts (the rules' unit schedule), as reasons; the classes,
    columns and the schedule's short citation come from the lookup table
    _parcel_requires(property_class, column_name, position, citation) that the engine fills."""
    missing = " ".join(f"WHEN {lit(c)} THEN s.{c} IS NULL" for c in _PARCEL_COUNTS)
    return (
        Step(
            reasons=(
                "(SELECT string_agg(r.property_class || ' parcel has no ' || r.column_name || '; its sewer "
                "units depend on it (' || r.citation || '): fill in ' || r.column_name, '; ' "
                "ORDER BY r.position) "
                "FROM _parcel_requires r WHERE r.property_class = s.property_class AND CASE r.column_name "
                f"{missing} ELSE false END)",
            )
        ),
    )


register(
    Dataset(
        "parcels",
        (
            Column("parcel_id", required=True),
            district_column(),
            enum_column(
                "property_class", PROPERTY_CLASS_VOCAB, TOWN_CODES.format(kind="property classes"), True
            ),
            Column("acres", "number", nonnegative=True),
            Column("living_units", "integer", nonnegative=True),
            Column("bathrooms", "integer", nonnegative=True),
            Column("washing_machines", "integer", nonnegative=True),
            Column("people", "integer", nonnegative=True),
            Column("seats", "integer", nonnegative=True),
            Column("moratorium", "bool"),
            # what a charge by the volume of water used reads (rules volume_charges)
            Column("meter_size_in", "number", nonnegative=True, doc="the water meter's size, in inches"),
            Column(
                "outside_limits",
                "bool",
                doc="yes when the premises are outside the town's corporate limits (blank: inside)",
            ),
            Column("metered", "bool", doc="no when the premises have no water meter (blank: metered)"),
            Column("owner"),
            Column("address"),
            # the owner's mailing address for the sewer register's mail merge: the street line (blank:
            # address), city, state, ZIP; all optional, left blank in the register when absent
            replace(
                MAILING_COLUMNS[1],
                doc="the owner's street line for the sewer register's mail merge (blank: address)",
            ),
            *MAILING_COLUMNS[2:],
        ),
        key=("parcel_id",),
        extensions=BY_HAND,
        context_steps=_parcel_steps,
        group="billing",
        required_for="the sewer bills",
        description="Tax parcels of the sewer districts with the counts the unit schedule needs.",
    )
)

register(
    Dataset(
        "sewer_rates",
        (
            Column("year", "integer", required=True),
            district_column(),
            enum_column("component", COMPONENT_VOCAB, TOWN_CODES.format(kind="bill components"), True),
            Column(
                "rate_per_unit",
                "number",
                required=True,
                nonnegative=True,
                sql_type="DECIMAL(18,6)",
                doc="USD",
            ),
        ),
        key=("year", "district", "component"),
        extensions=BY_HAND,
        # Keep the rate as exact decimal text (DECIMAL in the table), not a float.
        finish=(
            Step(
                columns=(
                    (
                        "rate_per_unit",
                        "CASE WHEN rate_per_unit IS NOT NULL THEN "
                        "TRY_CAST(replace(replace(replace(trim(_raw_rate_per_unit), ',', ''), '$', ''), ' "
                        "', '') AS DECIMAL(18,6)) END",
                    ),
                )
            ),
        ),
        group="billing",
        required_for="the sewer bills",
        description="USD per unit by billing year, district and component.",
    )
)
