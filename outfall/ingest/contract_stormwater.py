"""The contract's stormwater input folders (section 2): sites, inspections and rainfall, registered
on import (``outfall.ingest.spec.register``)."""

from __future__ import annotations

from dataclasses import replace

from outfall import vocab
from outfall.ingest.spec import (
    BY_HAND,
    MAILING_COLUMNS,
    Column,
    Dataset,
    LaterFact,
    Step,
    enum_column,
    jurisdiction_vocabulary,
    lower_in,
    register,
)

register(
    Dataset(
        "sites",
        (
            Column("site_id", required=True),
            Column(
                "jurisdiction",
                "enum",
                required=True,
                vocabulary=jurisdiction_vocabulary("jurisdiction"),
                allowed="a jurisdiction of the rules files",
                doc="the town or village the site is in: the name of its rules file, without `.yaml`",
            ),
            Column("disturbed_acres", "number", required=True, nonnegative=True),
            Column("construction_start", "date", required=True),
            Column(
                "rain_gauge_id",
                required=True,
                doc="the `gauge_id` of the rainfall folder whose storms the site's inspections follow",
            ),
            Column("name"),
            Column("address"),
            Column("applicant"),
            Column("impaired_water", "bool"),
            Column("single_family", "bool"),
            Column("agricultural", "bool"),
            Column("exempt", "bool"),
            Column("final_stabilization", "date"),
            # the applicant's mailing address: a notice's copy to the applicant (contract 7.4)
            replace(MAILING_COLUMNS[0], doc="the applicant's name as a copy is addressed (blank: applicant)"),
            replace(MAILING_COLUMNS[1], doc="the applicant's street line, for the copy of a notice"),
            *(replace(c, doc=f"{c.doc} (the applicant's)") for c in MAILING_COLUMNS[2:]),
            # the landowner, to whom notices of violation and stop-work orders are addressed (contract 7.4)
            Column("owner_name", doc="the landowner, to whom notices of violation and stop-work orders go"),
            Column("owner_address", doc="the landowner's street line"),
            Column("owner_city", doc="of the landowner's mailing address"),
            Column("owner_state", doc="of the landowner's mailing address: two letters, e.g. `NY`"),
            Column("owner_zip", doc="of the landowner's mailing address: `12345` or `12345-6789`"),
        ),
        key=("site_id",),
        extensions=BY_HAND,
        # its construction start is the plan's day (a site not started yet is listed as such); its final
        # stabilization a fact of its own day
        later_facts=(LaterFact("final_stabilization"),),
        group="stormwater",
        required_for="the stormwater work",
        description="Construction sites under a SWPPP.",
    )
)

register(
    Dataset(
        "inspections",
        (
            Column("site_id", required=True),
            Column("inspected_at", "timestamp", required=True),
            Column("inspector", required=True),
            enum_column("kind", lower_in("kind", vocab.INSPECTION_KINDS), ", ".join(vocab.INSPECTION_KINDS)),
            Column(
                "sediment_capacity_lost_pct",
                "number",
                doc="0-100: the share of the sediment traps' design capacity lost",
            ),
            Column("notes"),
        ),
        key=("site_id", "inspected_at", "inspector"),
        extensions=BY_HAND,
        answers=("inspected_at", "inspector", "sediment_capacity_lost_pct", "notes"),
        finish=(
            Step(
                columns=(("inspected_on", "CAST(timezone($tz, inspected_at) AS DATE)"),),
                reasons=(
                    "CASE WHEN sediment_capacity_lost_pct < 0 OR sediment_capacity_lost_pct > 100 THEN "
                    "'sediment_capacity_lost_pct ' || CAST(sediment_capacity_lost_pct AS VARCHAR) || "
                    "' is outside 0-100' END",
                ),
            ),
        ),
        extra_columns=(("inspected_on", "DATE"),),
        order=(
            "site_id",
            "inspected_at",
            "inspected_on",
            "inspector",
            "kind",
            "sediment_capacity_lost_pct",
            "notes",
        ),
        own_day="inspected_at",
        group="stormwater",
        required_for="the stormwater work",
        description="SWPPP inspection reports.",
    )
)

register(
    Dataset(
        "rainfall",
        (
            Column("gauge_id", required=True),
            Column(
                "date",
                "timestamp",
                required=True,
                doc="a date for a daily total; a time for sub-daily readings, summed to local days",
            ),
            Column("precip_in", "number", required=True, nonnegative=True, doc="inches"),
        ),
        key=("gauge_id", "observed_at"),
        key_doc="gauge_id + date (the day, or the time of a sub-daily reading)",
        # `date` is a daily total's local date; a timestamp (sub-daily gauge data)
        # is kept as observed_at and summed to its local day downstream.
        finish=(Step(columns=(("observed_at", "date"), ("date", "CAST(timezone($tz, date) AS DATE)"))),),
        extra_columns=(("date", "DATE"), ("observed_at", "TIMESTAMPTZ")),
        timestamp_groups=("gauge_id",),
        own_day="date",
        group="stormwater",
        required_for="the stormwater work",
        description="Rain-gauge totals (daily, or sub-daily summed to local days).",
    )
)
