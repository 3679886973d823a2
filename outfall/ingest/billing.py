"""The clerk's own input folders (docs/inputs-billing.md), declared for the ingestion engine:

- ``sewer_budget``: a district's budget for one component and year (year*, district*,
  component*, amount* in USD), from which a rate not adopted in ``sewer_rates`` is derived;
- ``connection_permits`` (contract section 5.5): the building permits asking for a water service
  or sewer lateral inspection, whose fees the inspection fee law sets.

Registered on import (``outfall.ingest.datasets.register``: every folder is optional); their tables
are made from the specs (``outfall.ingest.compile.create_table_sql``).
"""

from __future__ import annotations

from outfall.ingest.datasets import (
    BY_HAND,
    COMPONENT_VOCAB,
    DISTRICT_VOCAB,
    TOWN_CODES,
    Column,
    Dataset,
    Step,
    key_vocabulary,
    register,
    synonym_vocabulary,
)

# Keep the amount as exact decimal text (DECIMAL(12,2) in the table), not a float:
# a whole number of cents below 10,000,000,000.
_EXACT = "TRY_CAST(replace(replace(replace(trim(_raw_amount), ',', ''), '$', ''), ' ', '') AS DECIMAL(38,10))"
_OK = f"({_EXACT} = round({_EXACT}, 2) AND abs({_EXACT}) < 10000000000)"

SEWER_BUDGET = register(
    Dataset(
        "sewer_budget",
        (
            Column("year", "integer", required=True),
            Column(
                "district",
                "enum",
                required=True,
                vocabulary=DISTRICT_VOCAB,
                allowed=TOWN_CODES.format(kind="sewer districts"),
            ),
            Column(
                "component",
                "enum",
                required=True,
                vocabulary=COMPONENT_VOCAB,
                allowed=TOWN_CODES.format(kind="bill components"),
            ),
            Column(
                "amount",
                "number",
                required=True,
                nonnegative=True,
                sql_type="DECIMAL(12,2)",
                doc="USD, in whole cents",
            ),
        ),
        key=("year", "district", "component"),
        extensions=BY_HAND,
        finish=(
            Step(
                columns=(
                    (
                        "amount",
                        f"CASE WHEN amount IS NOT NULL AND {_OK} THEN CAST({_EXACT} AS DECIMAL(12,2)) END",
                    ),
                ),
                reasons=(
                    f"CASE WHEN amount IS NOT NULL AND NOT coalesce({_OK}, false) THEN 'amount ''' || "
                    "trim(_raw_amount) || ''' is not a whole number of cents below 10,000,000,000' END",
                ),
            ),
        ),
        group="billing",
        description="A district's budget (USD) for one component and year. Only where the rules adopt the "
        "method (billing.rate_sources lists sewer_budget, with the act that adopted it) is a rate not "
        "adopted in sewer_rates this budget divided by the component's total units in the district; the "
        "shipped rules adopt none, so a budget alone bills nothing.",
    )
)

# The units a water meter's reading may be in, and the spellings a file may use for each.
VOLUME_UNITS = {
    "gallon": ("gallons", "gal", "g"),
    "thousand_gallons": ("kgal", "1000 gallons", "1,000 gallons", "thousand gallons", "tgal"),
    "cubic_foot": ("cubic feet", "cf", "ft3", "cu ft"),
    "hundred_cubic_feet": ("ccf", "hcf", "100 cubic feet", "100 cf", "hundred cubic feet"),
}
_, VOLUME_UNIT_VOCAB = synonym_vocabulary("volume_unit", VOLUME_UNITS)

WATER_USE = register(
    Dataset(
        "water_use",
        (
            Column("parcel_id", required=True, doc="the premises (a parcel of the parcels folder)"),
            Column("period_start", "date", required=True, doc="the billing period's first day"),
            Column("period_end", "date", required=True, doc="the billing period's last day"),
            Column(
                "volume",
                "number",
                nonnegative=True,
                doc="the water used in the period, as the meter reads it (blank for unmetered premises)",
            ),
            Column(
                "unit",
                "enum",
                vocabulary=VOLUME_UNIT_VOCAB,
                allowed=", ".join(VOLUME_UNITS),
                doc="of the volume: gallons, thousand gallons, cubic feet or hundred cubic feet (ccf)",
            ),
        ),
        key=("parcel_id", "period_start"),
        extensions=BY_HAND,
        finish=(
            Step(
                reasons=(
                    "CASE WHEN period_end < period_start THEN 'the period ends before it starts' END",
                    "CASE WHEN volume IS NOT NULL AND unit IS NULL THEN 'a volume needs its unit' END",
                ),
            ),
        ),
        group="billing",
        description="The water each premises used in a billing period, as its meter reads it: what a sewer "
        "charge by volume is computed from.",
    )
)

CONNECTION_USES = ("single_family", "commercial")
USE_VOCAB = key_vocabulary("connection_use", CONNECTION_USES, [u.replace("_", "-") for u in CONNECTION_USES])

CONNECTION_PERMITS = register(
    Dataset(
        "connection_permits",
        (
            Column("permit_id", required=True),
            Column("parcel_id", required=True),
            Column("use", "enum", required=True, vocabulary=USE_VOCAB, allowed=", ".join(CONNECTION_USES)),
            Column("in_mall_or_business_park", "bool"),
            Column("water", "bool", doc="a water service line inspection is asked for"),
            Column("sewer", "bool", doc="a sewer lateral inspection is asked for"),
            Column("applied_on", "date", required=True),
        ),
        key=("permit_id",),
        extensions=BY_HAND,
        own_day="applied_on",
        group="billing",
        description="Building permits asking for a water service or sewer lateral inspection (the inspection "
        "fee law).",
    )
)
