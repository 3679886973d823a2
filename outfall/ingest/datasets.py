"""The input datasets of the contract (section 2): columns, natural keys and the
dataset-specific checks that turn raw text into canonical rows.

A dataset spec is data: the engine (``outfall.ingest.engine``) reads files,
applies the column parsers, then the dataset's ``finish`` step, and stores the
kept rows under the natural key. Extra datasets (areas' own input folders)
register themselves with ``register``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from outfall import vocab
from outfall.ingest.parse import LOCAL_TZ, blank, parse_text


@dataclass(frozen=True)
class Column:
    name: str
    kind: str = "text"  # text | number | integer | date | timestamp | bool | enum
    required: bool = False
    nonnegative: bool = False
    canonical: Callable[[str], str | None] | None = None  # for enum
    allowed: str = ""  # for enum messages
    aliases: tuple[str, ...] = ()


Finish = Callable[[pd.DataFrame, pd.DataFrame, "Context"], tuple[pd.DataFrame, pd.Series]]


@dataclass(frozen=True)
class Context:
    """What a finish step may need besides the rows: the rules."""

    unit_schedule: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Dataset:
    name: str
    columns: tuple[Column, ...]
    key: tuple[str, ...]
    extensions: tuple[str, ...] = (".csv",)
    finish: Finish | None = None
    timestamp_groups: tuple[str, ...] = ()  # columns grouping repeated local times (DST fall-back)
    group: str = "ingestion"
    description: str = ""

    @property
    def required(self) -> list[str]:
        return [c.name for c in self.columns if c.required]


def _enum(name, canonical, allowed, required=False) -> Column:
    return Column(name, "enum", required=required, canonical=canonical, allowed=allowed)


def _lower_in(options):
    opts = {o.lower(): o for o in options}
    return lambda v: opts.get(str(v).strip().lower())


def map_unique(series: pd.Series, fn) -> pd.Series:
    """Apply ``fn`` once per distinct value (columns hold few distinct values)."""
    uniques = pd.unique(series.dropna())
    return series.map({v: fn(v) for v in uniques})


def _reason(mask: pd.Series, message) -> pd.Series:
    out = pd.Series("", index=mask.index, dtype=object)
    if mask.any():
        out[mask] = message[mask] if isinstance(message, pd.Series) else message
    return out


def _convert_units(frame: pd.DataFrame, value_cols: list[str], unit_col: str, kinds: pd.Series,
                   subject: pd.Series) -> tuple[pd.DataFrame, pd.Series]:
    """Canonical unit per row from its kind; converts ``value_cols`` in place.
    Returns the frame (with unit_reported, unit canonical) and reasons."""
    reported = frame[unit_col].astype(object)
    canon = pd.Series(None, index=frame.index, dtype=object)
    for kind in pd.unique(kinds):
        rows = kinds == kind
        mapping = {u: vocab.canonical_unit(u, kind) for u in pd.unique(reported[rows].dropna())}
        canon[rows] = reported[rows].map(mapping)
    bad = canon.isna() & reported.notna()
    label = kinds.map({"concentration": "concentration unit (mg/L, ug/L)", "ph": "pH unit (s.u.)",
                       "temperature": "temperature unit (degF, degC)",
                       "flow": "flow unit (gpm, gpd, mgd, L/s, m3/d)"})
    reasons = _reason(bad, "unit '" + reported.astype(str) + "' is not a " + label.astype(str) + " for " + subject.astype(str))
    scale = canon.map({u: vocab.LINEAR[u][0] for u in vocab.LINEAR}).astype(float)
    offset = canon.map({u: vocab.LINEAR[u][1] for u in vocab.LINEAR}).astype(float)
    for col in value_cols:
        frame[col] = frame[col] * scale + offset
    frame["unit_reported"] = reported
    frame[unit_col] = canon.map(vocab.CANONICAL_OF)
    return frame, reasons


def _range_checks(frame: pd.DataFrame, value: str, parameter: pd.Series) -> pd.Series:
    v = frame[value]
    ph_bad = (parameter == "pH") & v.notna() & ((v < 0) | (v > 14))
    neg = (parameter != "pH") & (parameter != "temperature") & v.notna() & (v < 0)
    r1 = _reason(ph_bad, "pH " + v.astype(str) + " is outside 0-14")
    r2 = _reason(neg, "negative value " + v.astype(str) + " for " + parameter.astype(str)
                 + " (flows and concentrations cannot be negative)")
    return r1 + np.where((r1 != "") & (r2 != ""), "; ", "") + r2


# ---------------------------------------------------------------------------
# finish steps


def _finish_permit_limits(frame, raw, ctx):
    frame["parameter"] = map_unique(frame["parameter"], vocab.canonical_parameter)
    kinds = map_unique(frame["parameter"], vocab.parameter_kind)
    frame["value_reported"] = frame["value"]
    frame, reasons = _convert_units(frame, ["value"], "unit", kinds, frame["parameter"])
    reasons = reasons + _range_checks(frame, "value", frame["parameter"])
    order = frame["effective_to"].notna() & frame["effective_from"].notna() & (
        frame["effective_to"].astype(str) < frame["effective_from"].astype(str))
    reasons = reasons + _reason(order, "; effective_to is before effective_from")
    return frame, reasons


_ND_WORDS = {"nd", "n.d.", "non-detect", "nondetect", "not detected", "bdl", "<mdl", "<dl"}


def _finish_lab_results(frame, raw, ctx):
    text = raw["result"].astype(str).str.strip()
    lt = text.str.extract(r"^<\s*=?\s*([0-9]*\.?[0-9]+(?:[eE][+-]?\d+)?)$")[0]
    is_lt = lt.notna()
    is_nd = text.str.lower().isin(_ND_WORDS)
    number = pd.to_numeric(text.str.replace(",", "", regex=False), errors="coerce")
    result = number.where(~is_lt, pd.to_numeric(lt, errors="coerce"))
    result = result.where(~is_nd, frame["mdl"])
    bad = ~is_lt & ~is_nd & number.isna() & ~blank(raw["result"])
    reasons = _reason(bad, "result '" + text + "' is not a number, '<X' or 'ND'")
    frame["result_reported"] = text
    frame["nondetect"] = is_lt | is_nd
    frame["qualifier"] = np.where(is_lt, "<", np.where(is_nd, "ND", None))
    frame["result"] = result.astype(float)
    frame["parameter_reported"] = frame["parameter"]
    frame["parameter"] = map_unique(frame["parameter"], vocab.canonical_parameter)
    kinds = map_unique(frame["parameter"], vocab.parameter_kind)
    frame, unit_reasons = _convert_units(frame, ["result", "mdl"], "unit", kinds, frame["parameter"])
    reasons = reasons + np.where((reasons != "") & (unit_reasons != ""), "; ", "") + unit_reasons
    checks = _range_checks(frame, "result", frame["parameter"])
    reasons = reasons + np.where((reasons != "") & (checks != ""), "; ", "") + checks
    frame["collected_date"] = frame["collected_at"].dt.tz_convert(LOCAL_TZ).dt.date
    return frame, pd.Series(reasons, index=frame.index)


def _finish_flow(frame, raw, ctx):
    constituent = frame["constituent"].where(frame["constituent"].notna(), "flow")
    constituent = map_unique(constituent, lambda c: "flow" if str(c).strip().lower() == "flow"
                             else vocab.canonical_parameter(c))
    frame["constituent"] = constituent
    kinds = map_unique(constituent, vocab.kind_for_constituent)
    frame["value_reported"] = frame["value"]
    frame, reasons = _convert_units(frame, ["value"], "unit", kinds, constituent)
    checks = _range_checks(frame, "value", constituent)
    return frame, pd.Series(reasons + np.where((reasons != "") & (checks != ""), "; ", "") + checks, index=frame.index)


def _finish_infiltration(frame, raw, ctx):
    zero = (frame["diameter_in"] <= 0) | (frame["length_ft"] <= 0)
    return frame, _reason(zero.fillna(False), "diameter_in and length_ft must be greater than zero")


def _finish_parcels(frame, raw, ctx):
    reasons = pd.Series("", index=frame.index, dtype=object)
    classes = ctx.unit_schedule.get("classes", {})
    for cls, spec in classes.items():
        rows = frame["property_class"] == cls
        if not rows.any():
            continue
        for col in spec.get("requires", []):
            missing = rows & frame[col].isna()
            reasons = reasons + _reason(missing, f"{cls} parcel has no {col}; its sewer units depend on it "
                                        f"(ch. 253 Part 3): fill in {col} ")
    return frame, reasons.str.strip()


def _finish_inspections(frame, raw, ctx):
    pct = frame["sediment_capacity_lost_pct"]
    bad = pct.notna() & ((pct < 0) | (pct > 100))
    frame["inspected_on"] = frame["inspected_at"].dt.tz_convert(LOCAL_TZ).dt.date
    return frame, _reason(bad, "sediment_capacity_lost_pct " + pct.astype(str) + " is outside 0-100")


def _finish_rainfall(frame, raw, ctx):
    # `date` is a daily total's local date; a timestamp (sub-daily gauge data)
    # is kept as observed_at and summed to its local day downstream.
    frame["observed_at"] = frame["date"]
    frame["date"] = frame["observed_at"].dt.tz_convert(LOCAL_TZ).dt.date
    return frame, pd.Series("", index=frame.index, dtype=object)


def _finish_sewer_rates(frame, raw, ctx):
    # Keep the rate as exact decimal text (DECIMAL in the table), not a float.
    text = raw["rate_per_unit"].astype(str).str.strip().str.replace(",", "", regex=False).str.lstrip("$")
    frame["rate_per_unit"] = text.where(frame["rate_per_unit"].notna(), None)
    return frame, pd.Series("", index=frame.index, dtype=object)


# ---------------------------------------------------------------------------
# the contract's datasets

_district = lambda req=True: _enum("district", vocab.canonical_district, "consolidated, district_1", req)  # noqa: E731

DATASETS: dict[str, Dataset] = {}


def register(ds: Dataset) -> Dataset:
    DATASETS[ds.name] = ds
    return ds


register(Dataset(
    "industrial_users",
    (Column("user_id", required=True), Column("name", required=True), _district(),
     Column("address"), Column("permit_no"), Column("permit_effective", "date"), Column("permit_expires", "date"),
     Column("normal_avg_flow_gpd", "number", nonnegative=True)),
    key=("user_id",), group="sewer_administrator",
    description="Permitted industrial users (ch. 253 Part 2 permits).",
))
register(Dataset(
    "permit_limits",
    (Column("user_id", required=True), Column("parameter", required=True),
     _enum("limit_type", _lower_in(vocab.LIMIT_TYPES), ", ".join(vocab.LIMIT_TYPES), True),
     Column("value", "number", required=True), Column("unit", required=True), Column("basis"),
     Column("effective_from", "date"), Column("effective_to", "date")),
    key=("user_id", "parameter", "limit_type", "effective_from"), finish=_finish_permit_limits,
    group="sewer_administrator",
    description="Permit-specific limits (Part 2 special agreements) replacing the jurisdiction's limit while in effect.",
))
register(Dataset(
    "lab_results",
    (Column("sample_id", required=True), Column("user_id", required=True),
     Column("collected_at", "timestamp", required=True),
     _enum("sample_type", _lower_in(vocab.SAMPLE_TYPES), "composite, grab", True),
     Column("parameter", required=True), Column("result", "text", required=True), Column("unit", required=True),
     Column("mdl", "number", nonnegative=True), Column("lab"), Column("method")),
    key=("sample_id", "parameter"), extensions=(".csv", ".xlsx"), finish=_finish_lab_results,
    group="sewer_administrator",
    description="Laboratory results of industrial users' samples (composites and grabs).",
))
register(Dataset(
    "flow",
    (Column("user_id", required=True), Column("timestamp", "timestamp", required=True),
     Column("value", "number", required=True), Column("unit", required=True), Column("constituent")),
    key=("user_id", "constituent", "ts"), extensions=(".csv", ".parquet"), finish=_finish_flow,
    timestamp_groups=("user_id", "constituent"), group="sewer_administrator",
    description="Flow-meter and continuous-probe readings.",
))
register(Dataset(
    "infiltration_tests",
    (Column("section_id", required=True), Column("test_date", "date", required=True),
     Column("diameter_in", "number", required=True, nonnegative=True),
     Column("length_ft", "number", required=True, nonnegative=True),
     Column("measured_gpd", "number", required=True, nonnegative=True)),
    key=("section_id", "test_date"), finish=_finish_infiltration, group="sewer_administrator",
    description="Infiltration tests of sewer sections (Part 2: 200 gal per inch-diameter per mile per day).",
))
register(Dataset(
    "parcels",
    (Column("parcel_id", required=True), _district(),
     _enum("property_class", vocab.canonical_property_class, ", ".join(vocab.PROPERTY_CLASSES), True),
     Column("acres", "number", nonnegative=True), Column("living_units", "integer", nonnegative=True),
     Column("bathrooms", "integer", nonnegative=True), Column("washing_machines", "integer", nonnegative=True),
     Column("people", "integer", nonnegative=True), Column("seats", "integer", nonnegative=True),
     Column("moratorium", "bool"), Column("owner"), Column("address")),
    key=("parcel_id",), finish=_finish_parcels, group="billing",
    description="Tax parcels of the sewer districts with the counts the unit schedule needs.",
))
register(Dataset(
    "sewer_rates",
    (Column("year", "integer", required=True), _district(),
     _enum("component", vocab.canonical_component, ", ".join(vocab.COMPONENTS), True),
     Column("rate_per_unit", "number", required=True, nonnegative=True)),
    key=("year", "district", "component"), finish=_finish_sewer_rates, group="billing",
    description="USD per unit by billing year, district and component.",
))
register(Dataset(
    "sites",
    (Column("site_id", required=True),
     _enum("jurisdiction", _lower_in(vocab.JURISDICTIONS), "woodbury, bellport", True),
     Column("disturbed_acres", "number", required=True, nonnegative=True),
     Column("construction_start", "date", required=True), Column("rain_gauge_id", required=True),
     Column("name"), Column("address"), Column("applicant"), Column("impaired_water", "bool"),
     Column("single_family", "bool"), Column("agricultural", "bool"), Column("exempt", "bool"),
     Column("final_stabilization", "date")),
    key=("site_id",), group="stormwater_officer",
    description="Construction sites under a SWPPP.",
))
register(Dataset(
    "inspections",
    (Column("site_id", required=True), Column("inspected_at", "timestamp", required=True),
     Column("inspector", required=True),
     _enum("kind", _lower_in(vocab.INSPECTION_KINDS), ", ".join(vocab.INSPECTION_KINDS)),
     Column("sediment_capacity_lost_pct", "number"), Column("notes")),
    key=("site_id", "inspected_at", "inspector"), finish=_finish_inspections, group="stormwater_officer",
    description="SWPPP inspection reports.",
))
register(Dataset(
    "rainfall",
    (Column("gauge_id", required=True), Column("date", "timestamp", required=True),
     Column("precip_in", "number", required=True, nonnegative=True)),
    key=("gauge_id", "observed_at"), finish=_finish_rainfall, timestamp_groups=("gauge_id",),
    group="stormwater_officer",
    description="Rain-gauge totals (daily, or sub-daily summed to local days).",
))

# Columns renamed on the way into the table.
RENAMES = {"flow": {"timestamp": "ts"}}
