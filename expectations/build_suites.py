"""Writes expectations/<dataset>.json: one Great Expectations 1.x suite per input dataset.

The suites describe the KEPT rows of the input tables in DuckDB, after
ingestion (canonical names and units, contract section 2). They are run by
``assets/checks.py`` through ``outfall/gx_adapter.py``.

Why a generator and not hand-written JSON: the vocabularies (sample types,
units, parameter synonyms) come from
``outfall.vocab`` (a town's districts, property classes and components from its rules, given by
the run), so a suite cannot drift from what ingestion accepts, and
every suite is passed through ``great_expectations.ExpectationSuite`` before it
is written, so a misspelt expectation type or keyword fails here, not in a run.
The JSON files are checked in; ``tests/test_checks.py`` fails when they differ
from what this script writes.

    .venv/bin/python expectations/build_suites.py          # rewrite the JSON files
    .venv/bin/python expectations/build_suites.py --check  # exit 1 if any file is stale

Every expectation carries ``meta.severity`` (ERROR or WARN) and
``meta.description`` (a sentence for a person), and GX's own ``severity``
(critical / warning) set to match:

- ERROR: a kept row breaks a promise of the contract that ingestion is meant
  to enforce (required value, vocabulary, range, unique natural key, canonical
  unit), so outputs computed from it may be wrong.
- WARN: the row is allowed by the contract but looks wrong to a person
  (implausible magnitude, contradictory optional dates, a missing detection
  value); the outputs are computed, someone should look.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from outfall import vocab  # noqa: E402

GX_SEVERITY = {"ERROR": "critical", "WARN": "warning"}
CANONICAL_UNITS = ("mg/L", "s.u.", "degF")
FLOW_UNITS = ("gpm", "s.u.", "degF", "mg/L")
NOT_CONCENTRATION = ("pH", "temperature")
# Synonyms that ingestion must have replaced by the canonical name (BOD5 -> BOD,
# 'oil and grease' -> FOG, 'ph' -> pH): any of these left in a table is a bug.
PARAMETER_SYNONYMS = tuple(
    sorted({syn for canon, syns in vocab.PARAMETERS.items() for syn in syns if syn != canon})
)


# ---------------------------------------------------------------------------
# helpers: one dict per expectation, in GX 1.x suite JSON form


def _expect(type_: str, severity: str, description: str, **kwargs: Any) -> dict:
    if severity not in GX_SEVERITY:
        raise ValueError(f"severity must be ERROR or WARN, not {severity!r}")
    return {
        "type": type_,
        "kwargs": kwargs,
        "meta": {"severity": severity, "description": description},
        "severity": GX_SEVERITY[severity],
    }


def _where(column: str, operator: str, value: Any) -> dict:
    """A GX 1.x row condition (serialized ComparisonCondition)."""
    return {"type": "comparison", "column": {"name": column}, "operator": operator, "parameter": value}


def not_null(column: str, what: str, severity: str = "ERROR", **kw: Any) -> dict:
    return _expect("expect_column_values_to_not_be_null", severity, what, column=column, **kw)


def required(*columns: str, dataset: str) -> list[dict]:
    return [
        not_null(c, f"Every kept {dataset} row has {c} (a required column, contract section 2).")
        for c in columns
    ]


def in_set(column: str, values, what: str, severity: str = "ERROR", **kw: Any) -> dict:
    """``values``: a list, or ``{"$PARAMETER": name}`` for a set only the run knows (see assets/checks.py)."""
    value_set = values if isinstance(values, dict) else list(values)
    return _expect(
        "expect_column_values_to_be_in_set", severity, what, column=column, value_set=value_set, **kw
    )


TOWN_CODE_WORDS = {
    "districts": "one of the town's sewer districts",
    "property_classes": "one of the unit schedule's property classes",
    "components": "one of the town's bill components",
}


def town_code(column: str, kind: str, dataset: str) -> list[dict]:
    """A column of the town's codes (its rules' vocabulary of ``kind``): required and one of them where the
    rules list some; anything, or nothing, where they list none. The run gives the codes (``$kind``) and
    whether they are listed (``$kind_listed``: 1.0, or 0.0 to let every value pass)."""
    listed = {"$PARAMETER": f"{kind}_listed"}
    return [
        not_null(
            column,
            f"Every kept {dataset} row has {column} (required where the town's rules list its {kind}).",
            mostly=listed,
        ),
        in_set(column, {"$PARAMETER": kind}, f"{column} is {TOWN_CODE_WORDS[kind]}.", mostly=listed),
    ]


def between(
    column: str, what: str, severity: str = "ERROR", min_value=None, max_value=None, **kw: Any
) -> dict:
    bounds = {k: v for k, v in (("min_value", min_value), ("max_value", max_value)) if v is not None}
    return _expect("expect_column_values_to_be_between", severity, what, column=column, **bounds, **kw)


def unique(columns: tuple[str, ...] | list[str], what: str, severity: str = "ERROR") -> dict:
    if len(columns) == 1:
        return _expect("expect_column_values_to_be_unique", severity, what, column=columns[0])
    return _expect("expect_compound_columns_to_be_unique", severity, what, column_list=list(columns))


def ordered(earlier: str, later: str, what: str, severity: str) -> dict:
    """earlier <= later where both are set."""
    return _expect(
        "expect_column_pair_values_a_to_be_greater_than_b",
        severity,
        what,
        column_A=later,
        column_B=earlier,
        or_equal=True,
        ignore_row_if="either_value_is_missing",
    )


def units_by_parameter(param_col: str, unit_col: str, value_col: str, dataset: str) -> list[dict]:
    """Canonical units (mg/L, s.u., degF) matched to the parameter, pH 0-14, no negative concentrations."""
    return [
        in_set(
            unit_col,
            CANONICAL_UNITS,
            f"{unit_col} is a canonical unit (mg/L, s.u. or degF): ingestion "
            "converts ug/L to mg/L and degC to degF.",
        ),
        in_set(unit_col, ["s.u."], f"pH {dataset} are in s.u.", row_condition=_where(param_col, "==", "pH")),
        in_set(
            unit_col,
            ["degF"],
            f"temperature {dataset} are in degF (degC is converted on the way in).",
            row_condition=_where(param_col, "==", "temperature"),
        ),
        in_set(
            unit_col,
            ["mg/L"],
            "Concentrations (every parameter but pH and temperature) are in mg/L.",
            row_condition=_where(param_col, "NOT_IN", list(NOT_CONCENTRATION)),
        ),
        between(
            value_col,
            f"pH {value_col} is between 0 and 14 s.u. (contract section 2: outside 0-14 is quarantined).",
            min_value=0,
            max_value=14,
            row_condition=_where(param_col, "==", "pH"),
        ),
        between(
            value_col,
            "Concentrations are not negative (contract section 2: a negative concentration is quarantined).",
            min_value=0,
            row_condition=_where(param_col, "NOT_IN", list(NOT_CONCENTRATION)),
        ),
        _expect(
            "expect_column_values_to_not_be_in_set",
            "ERROR",
            f"{param_col} is canonical (BOD, COD, TSS, chlorine_demand, pH, FOG, temperature or a name "
            "kept as given): no synonym such as BOD5 or 'oil and grease' is left.",
            column=param_col,
            value_set=list(PARAMETER_SYNONYMS),
        ),
    ]


# ---------------------------------------------------------------------------
# the suites: dataset -> (description, expectations)


Suite = tuple[str, list[dict]]  # a suite's description and its expectations


def industrial_users() -> Suite:
    return (
        "Permitted industrial users (sewer use permits).",
        [
            *required("user_id", "name", dataset="industrial_users"),
            *town_code("district", "districts", "industrial_users"),
            unique(["user_id"], "user_id is the natural key: one row per industrial user."),
            between("normal_avg_flow_gpd", "The permit's normal average flow is not negative.", min_value=0),
            ordered(
                "permit_effective",
                "permit_expires",
                "A permit does not expire before it takes effect "
                "(permit_effective <= permit_expires where both are given).",
                "WARN",
            ),
            _expect(
                "expect_column_values_to_be_unique",
                "WARN",
                "No two users share a permit number.",
                column="permit_no",
            ),
        ],
    )


def permit_limits() -> Suite:
    return (
        "Permit-specific limits (special agreements replacing the jurisdiction's limits).",
        [
            *required("user_id", "parameter", "limit_type", "value", "unit", dataset="permit_limits"),
            in_set(
                "limit_type", vocab.LIMIT_TYPES, "limit_type is one of " + ", ".join(vocab.LIMIT_TYPES) + "."
            ),
            *units_by_parameter("parameter", "unit", "value", "limits"),
            unique(
                ["user_id", "parameter", "limit_type", "effective_from"],
                "One limit per user, parameter, limit type and start date (the natural key).",
            ),
            ordered(
                "effective_from",
                "effective_to",
                "A limit does not end before it starts "
                "(effective_from <= effective_to where both are given).",
                "ERROR",
            ),
        ],
    )


def lab_results() -> Suite:
    return (
        "Laboratory results of industrial users' samples, canonical units.",
        [
            *required(
                "sample_id",
                "user_id",
                "collected_at",
                "collected_date",
                "sample_type",
                "parameter",
                "unit",
                "nondetect",
                dataset="lab_results",
            ),
            not_null(
                "result",
                "A detected result always has a number.",
                row_condition=_where("nondetect", "==", False),
            ),
            not_null(
                "result",
                "A non-detect carries its detection value ('<X', or the mdl for 'ND'); an 'ND' "
                "without an mdl cannot be compared with a limit.",
                "WARN",
                row_condition=_where("nondetect", "==", True),
            ),
            in_set("sample_type", vocab.SAMPLE_TYPES, "sample_type is composite or grab."),
            *units_by_parameter("parameter", "unit", "result", "results"),
            between(
                "result",
                "Temperature is between 32 and 212 degF (liquid water); outside that range the "
                "unit was probably mixed up (degC reported as degF).",
                "WARN",
                min_value=32,
                max_value=212,
                row_condition=_where("parameter", "==", "temperature"),
            ),
            between("mdl", "The method detection limit is not negative.", min_value=0),
            in_set("qualifier", ["<", "ND"], "qualifier is '<' or 'ND' (or empty for a detected result)."),
            not_null(
                "qualifier",
                "Every non-detect has its qualifier ('<' or 'ND').",
                row_condition=_where("nondetect", "==", True),
            ),
            unique(["sample_id", "parameter"], "One result per sample and parameter (the natural key)."),
        ],
    )


def flow() -> Suite:
    return (
        "Flow-meter and continuous-probe readings (gpm for flow). The whole table is checked by "
        "SQL checks in DuckDB; this suite runs on a sample.",
        [
            *required("user_id", "constituent", "ts", "value", "unit", dataset="flow"),
            in_set("unit", FLOW_UNITS, "unit is canonical: gpm for flow, s.u., degF or mg/L for probes."),
            in_set(
                "unit",
                ["gpm"],
                "Flow is in gpm (gpd, mgd, L/s and m3/d are converted on the way in).",
                row_condition=_where("constituent", "==", "flow"),
            ),
            between(
                "value",
                "Flow is not negative (contract section 2).",
                min_value=0,
                row_condition=_where("constituent", "==", "flow"),
            ),
            between(
                "value",
                "pH readings are between 0 and 14 s.u.",
                min_value=0,
                max_value=14,
                row_condition=_where("constituent", "==", "pH"),
            ),
            unique(
                ["user_id", "constituent", "ts"],
                "One reading per user, constituent and instant (the natural key).",
            ),
        ],
    )


def infiltration_tests() -> Suite:
    return (
        "Infiltration tests of sewer sections (the sewer use law's infiltration limit).",
        [
            *required(
                "section_id",
                "test_date",
                "diameter_in",
                "length_ft",
                "measured_gpd",
                dataset="infiltration_tests",
            ),
            between("diameter_in", "The pipe diameter is greater than zero.", min_value=0, strict_min=True),
            between("length_ft", "The section length is greater than zero.", min_value=0, strict_min=True),
            between("measured_gpd", "The measured infiltration is not negative.", min_value=0),
            between(
                "diameter_in",
                "The pipe diameter is at most 144 in; a larger number is probably millimetres.",
                "WARN",
                max_value=144,
            ),
            unique(["section_id", "test_date"], "One test per section and day (the natural key)."),
        ],
    )


def parcels() -> Suite:
    return (
        "Tax parcels of the sewer districts (the unit schedule of the sewer rates).",
        [
            *required("parcel_id", dataset="parcels"),
            *town_code("district", "districts", "parcels"),
            *town_code("property_class", "property_classes", "parcels"),
            unique(["parcel_id"], "parcel_id is the natural key: one row per parcel."),
            *[
                between(c, f"{c} is not negative.", min_value=0)
                for c in ("acres", "living_units", "bathrooms", "washing_machines", "people", "seats")
            ],
        ],
    )


def sewer_rates() -> Suite:
    return (
        "USD per unit by billing year, district and component.",
        [
            *required("year", "rate_per_unit", dataset="sewer_rates"),
            *town_code("district", "districts", "sewer_rates"),
            *town_code("component", "components", "sewer_rates"),
            between("rate_per_unit", "A rate is not negative.", min_value=0),
            between(
                "year", "The billing year is between 1900 and 2200.", "WARN", min_value=1900, max_value=2200
            ),
            unique(
                ["year", "district", "component"],
                "One rate per year, district and component (the natural key).",
            ),
        ],
    )


def sites() -> Suite:
    return (
        "Construction sites under a SWPPP.",
        [
            *required(
                "site_id",
                "jurisdiction",
                "disturbed_acres",
                "construction_start",
                "rain_gauge_id",
                dataset="sites",
            ),
            unique(["site_id"], "site_id is the natural key: one row per site."),
            in_set(
                "jurisdiction",
                {"$PARAMETER": "jurisdictions"},
                "jurisdiction is one of the rules files' jurisdictions.",
            ),
            between("disturbed_acres", "disturbed_acres is not negative.", min_value=0),
            ordered(
                "construction_start",
                "final_stabilization",
                "A site is not stabilized before construction "
                "starts (construction_start <= final_stabilization where given); otherwise it never needs "
                "an inspection.",
                "WARN",
            ),
        ],
    )


def inspections() -> Suite:
    return (
        "SWPPP inspection reports.",
        [
            *required("site_id", "inspected_at", "inspected_on", "inspector", dataset="inspections"),
            in_set(
                "kind", vocab.INSPECTION_KINDS, "kind is routine, storm, milestone or officer (or empty)."
            ),
            between(
                "sediment_capacity_lost_pct",
                "sediment_capacity_lost_pct is between 0 and 100.",
                min_value=0,
                max_value=100,
            ),
            unique(
                ["site_id", "inspected_at", "inspector"],
                "One report per site, time and inspector (the natural key).",
            ),
        ],
    )


def rainfall() -> Suite:
    return (
        "Rain-gauge totals (daily, or sub-daily summed to local days).",
        [
            *required("gauge_id", "date", "precip_in", "observed_at", dataset="rainfall"),
            between("precip_in", "Rainfall is not negative (contract section 2).", min_value=0),
            between(
                "precip_in",
                "A gauge total is at most 15 in (more than New York's record day); more is "
                "probably millimetres or a stuck gauge.",
                "WARN",
                max_value=15,
            ),
            unique(["gauge_id", "observed_at"], "One total per gauge and time (the natural key)."),
        ],
    )


# One builder per input table, in the order the suites are written.
BUILDERS = (
    industrial_users,
    permit_limits,
    lab_results,
    flow,
    infiltration_tests,
    parcels,
    sewer_rates,
    sites,
    inspections,
    rainfall,
)


def suites() -> dict[str, Suite]:
    return {build.__name__: build() for build in BUILDERS}


def suite_dict(dataset: str, description: str, expectations: list[dict]) -> dict:
    return {
        "name": dataset,
        "expectations": expectations,
        "meta": {
            "dataset": dataset,
            "table": dataset,
            "description": description,
            "rows": "kept rows of the DuckDB table after ingestion (canonical values)",
            "checked_by": f"assets/checks.py: check_expectations_{dataset}",
            "generated_by": "expectations/build_suites.py",
        },
    }


def render(dataset: str) -> str:
    """The suite's JSON text, normalised by GX (which also validates every expectation)."""
    os.environ.setdefault("GX_ANALYTICS_ENABLED", "false")
    import great_expectations as gx

    description, expectations = suites()[dataset]
    suite = gx.ExpectationSuite(**suite_dict(dataset, description, expectations))
    return json.dumps(suite.to_json_dict(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if a JSON file differs from what would be written"
    )
    args = parser.parse_args(argv)
    stale = []
    for dataset in suites():
        path = HERE / f"{dataset}.json"
        text = render(dataset)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path.name)
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(HERE.parent)}")
    if stale:
        print("stale suites (run expectations/build_suites.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
