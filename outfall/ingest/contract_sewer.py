"""The contract's sewer input folders (section 2): industrial_users, permit_limits, lab_results,
flow and infiltration_tests, registered on import (``outfall.ingest.spec.register``)."""

from __future__ import annotations

from outfall import vocab
from outfall.ingest.parse import lit
from outfall.ingest.spec import (
    BY_HAND,
    FLOW_UNIT_CHOICES,
    LAB_UNIT_CHOICES,
    MAILING_COLUMNS,
    PARAMETER_CHOICES,
    Column,
    Dataset,
    LaterFact,
    Step,
    district_column,
    enum_column,
    kind_sql,
    lower_in,
    parameter_steps,
    range_reasons,
    register,
    unit_steps,
)

register(
    Dataset(
        "industrial_users",
        (
            Column("user_id", required=True),
            Column("name", required=True),
            district_column(),
            Column("address"),
            Column("permit_no"),
            Column("permit_effective", "date"),
            Column("permit_expires", "date"),
            Column(
                "normal_avg_flow_gpd",
                "number",
                nonnegative=True,
                doc="gallons a day: the permit's average 24-hour flow in normal operation (the slug baseline "
                "of its flow, when given)",
            ),
            *MAILING_COLUMNS,
            Column(
                "outside_limits",
                "bool",
                doc="yes when the user's service location is outside the town's corporate limits (where "
                "the rules charge such users otherwise; blank: inside)",
            ),
            Column(
                "permit_sets_surcharge",
                "bool",
                doc="yes when the user's permit allows discharge above the limits for a surcharge (where "
                "the rules surcharge only such users; blank: no)",
            ),
            Column(
                "parcel_id",
                doc="the premises (parcels) whose sewer charges the user's surcharges are billed with: its "
                "bill adds them to the premises' charges (blank: its surcharges are listed, not billed)",
            ),
        ),
        key=("user_id",),
        extensions=BY_HAND,
        # a permit that takes effect after the day judged is not yet the user's permit
        later_facts=(LaterFact("permit_effective", ("permit_no", "permit_expires")),),
        group="sewer",
        required_for="the sewer work",
        description="Permitted industrial users (the sewer use law's permits).",
    )
)

register(
    Dataset(
        "permit_limits",
        (
            Column("user_id", required=True),
            Column("parameter", required=True, choices=PARAMETER_CHOICES),
            enum_column(
                "limit_type", lower_in("limit_type", vocab.LIMIT_TYPES), ", ".join(vocab.LIMIT_TYPES), True
            ),
            Column("value", "number", required=True, doc="in the row's unit"),
            Column("unit", required=True, choices=LAB_UNIT_CHOICES),
            Column("basis", doc="the permit condition or agreement that set it"),
            Column("effective_from", "date", doc="blank: no start"),
            Column("effective_to", "date", doc="blank: no end"),
        ),
        key=("user_id", "parameter", "limit_type", "effective_from"),
        extensions=BY_HAND,
        finish=(
            *parameter_steps("parameter", "parameter"),
            *unit_steps(("value",), "parameter", kind_sql("parameter"), (("value_reported", "value"),)),
            Step(
                reasons=(
                    *range_reasons("value", "parameter"),
                    "CASE WHEN effective_to < effective_from THEN 'effective_to is before effective_from' "
                    "END",
                )
            ),
        ),
        extra_columns=(("unit_reported", "VARCHAR"), ("value_reported", "DOUBLE")),
        order=(
            "user_id",
            "parameter",
            "limit_type",
            "value",
            "unit",
            "unit_reported",
            "value_reported",
            "basis",
            "effective_from",
            "effective_to",
        ),
        own_day="effective_from",
        group="sewer",
        description="Permit-specific limits (the sewer use law's special agreements) replacing the "
        "jurisdiction's limit "
        "while in effect.",
    )
)

#: Who took a sample: the user (its own monitoring) or the Town; blank is the user (contract 7.1).
SAMPLED_BY = ("user", "town")
_ND_WORDS = ("nd", "n.d.", "non-detect", "nondetect", "not detected", "bdl", "<mdl", "<dl")
_LT_RE = r"<\s*=?\s*([0-9]*\.?[0-9]+(?:[eE][+-]?\d+)?)"

register(
    Dataset(
        "lab_results",
        (
            Column("sample_id", required=True),
            Column("user_id", required=True),
            Column("collected_at", "timestamp", required=True),
            enum_column("sample_type", lower_in("sample_type", vocab.SAMPLE_TYPES), "composite, grab", True),
            Column("parameter", required=True, choices=PARAMETER_CHOICES),
            Column("result", "text", required=True, doc="a number, `<X` (a non-detect below X) or `ND`"),
            Column("unit", required=True, choices=LAB_UNIT_CHOICES),
            Column(
                "mdl", "number", nonnegative=True, doc="the method detection limit: an `ND` result's value"
            ),
            Column("lab"),
            Column("method"),
            Column(
                "sampled_by",
                "enum",
                vocabulary=lower_in("sampled_by", SAMPLED_BY),
                allowed=", ".join(SAMPLED_BY),
                doc="who took the sample: `user` (the user's own monitoring) or `town`; blank: the user. "
                "Only the user's own samples call for its 24-hour notice and repeat sampling (40 CFR "
                "403.12(g)(2)) and meet the testing the administrator requires of it",
            ),
        ),
        key=("sample_id", "parameter"),
        extensions=BY_HAND,
        answers=("sample_id", "collected_at", "result", "unit", "mdl", "lab", "method"),
        finish=(
            Step(
                columns=(
                    ("_lt", f"TRY_CAST(regexp_extract(result, '^{_LT_RE}$', 1) AS DOUBLE)"),
                    ("_nd", f"lower(result) IN ({', '.join(lit(w) for w in _ND_WORDS)})"),
                    (
                        "_num",
                        "TRY_CAST(CASE WHEN regexp_full_match(result, '"
                        + r"[+-]?(\d{1,3}(,\d{3})+(\.\d*)?|\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)"
                        + "') THEN replace(result, ',', '') END AS DOUBLE)",
                    ),
                    ("result_reported", "result"),
                    ("parameter_reported", "parameter"),
                )
            ),
            *parameter_steps("parameter", "parameter"),
            Step(
                columns=(
                    ("nondetect", "CASE WHEN result IS NULL THEN NULL ELSE _lt IS NOT NULL OR _nd END"),
                    ("qualifier", "CASE WHEN _lt IS NOT NULL THEN '<' WHEN _nd THEN 'ND' END"),
                    (
                        "result",
                        "CASE WHEN _lt IS NOT NULL THEN _lt WHEN _nd THEN mdl "
                        "WHEN isfinite(_num) THEN _num END",
                    ),
                ),
                reasons=(
                    "CASE WHEN result_reported IS NOT NULL AND _lt IS NULL AND NOT _nd AND (_num IS NULL OR "
                    "NOT isfinite(_num)) THEN CASE WHEN lower(result_reported) IN ('nan', 'inf', '+inf', "
                    "'-inf', 'infinity', '-infinity')      OR (_num IS NOT NULL AND NOT isfinite(_num)) "
                    "THEN 'result ''' || result_reported || ''' is not a finite number' WHEN "
                    "contains(result_reported, ',') AND regexp_full_match(result_reported, "
                    "'[<=\\s]*[+-]?[0-9.,]*[0-9][0-9.,]*') THEN 'result ''' || result_reported || ''' is "
                    "ambiguous: a comma is read only as a thousands separator (1,234 or 12,345.6); write a "
                    "decimal with a point (2.5), or the number without the comma' ELSE 'result ''' || CASE "
                    "WHEN length(result_reported) > 80 THEN left(result_reported, 77) || '...' ELSE "
                    "result_reported END || ''' is not a number, ''<X'' or ''ND''' END END",
                ),
            ),
            *unit_steps(("result", "mdl"), "parameter", kind_sql("parameter")),
            Step(
                columns=(("collected_date", "CAST(timezone($tz, collected_at) AS DATE)"),),
                reasons=range_reasons("result", "parameter"),
            ),
        ),
        extra_columns=(
            ("collected_date", "DATE"),
            ("parameter_reported", "VARCHAR"),
            ("nondetect", "BOOLEAN"),
            ("qualifier", "VARCHAR"),
            ("result_reported", "VARCHAR"),
            ("unit_reported", "VARCHAR"),
            ("result", "DOUBLE"),
        ),
        order=(
            "sample_id",
            "user_id",
            "collected_at",
            "collected_date",
            "sample_type",
            "parameter",
            "parameter_reported",
            "result",
            "nondetect",
            "qualifier",
            "result_reported",
            "unit",
            "unit_reported",
            "mdl",
            "lab",
            "method",
            "sampled_by",
        ),
        own_day="collected_at",
        group="sewer",
        required_for="the sewer work",
        description="Laboratory results of industrial users' samples (composites and grabs).",
    )
)

register(
    Dataset(
        "flow",
        (
            Column("user_id", required=True),
            Column("timestamp", "timestamp", required=True),
            Column("value", "number", required=True),
            Column("unit", required=True, choices=FLOW_UNIT_CHOICES),
            Column(
                "constituent",
                choices=("flow", *PARAMETER_CHOICES),
                doc="blank: `flow`; a probe's `pH`, `temperature` or another parameter",
            ),
        ),
        key=("user_id", "constituent", "ts"),
        extensions=(".csv", ".parquet"),
        finish=(
            *parameter_steps("constituent", "constituent", flow=True),
            *unit_steps(
                ("value",),
                "constituent",
                f"CASE WHEN constituent = 'flow' THEN 'flow' ELSE {kind_sql('constituent')} END",
                (("value_reported", "value"),),
            ),
            Step(reasons=range_reasons("value", "constituent")),
        ),
        extra_columns=(("unit_reported", "VARCHAR"), ("value_reported", "DOUBLE")),
        order=("user_id", "constituent", "ts", "value", "unit", "unit_reported", "value_reported"),
        timestamp_groups=("user_id", "constituent"),
        renames=(("timestamp", "ts"),),
        hourly_summaries=True,
        own_day="ts",
        group="sewer",
        description="Flow-meter and continuous-probe readings.",
    )
)

register(
    Dataset(
        "infiltration_tests",
        (
            Column("section_id", required=True),
            Column("test_date", "date", required=True),
            Column(
                "diameter_in", "number", required=True, nonnegative=True, doc="the pipe's diameter in inches"
            ),
            Column(
                "length_ft", "number", required=True, nonnegative=True, doc="the section's length in feet"
            ),
            Column(
                "measured_gpd",
                "number",
                required=True,
                nonnegative=True,
                doc="the infiltration measured, gallons a day",
            ),
        ),
        key=("section_id", "test_date"),
        extensions=BY_HAND,
        finish=(
            Step(
                reasons=(
                    "CASE WHEN diameter_in <= 0 OR length_ft <= 0 THEN "
                    "'diameter_in and length_ft must be greater than zero' END",
                )
            ),
        ),
        own_day="test_date",
        group="sewer",
        description="Infiltration tests of sewer sections (judged against the sewer use law's infiltration "
        "limit in the rules).",
    )
)
