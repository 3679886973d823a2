"""Adapter from an EPA ECHO effluent-chart download (``data/real/echo_effluent_chart_TX0119407.csv``)
to the contract's input folders: ``industrial_users``, ``permit_limits`` and ``lab_results``.

The file is a permit's discharge monitoring reports (DMRs) joined to its limits: one row per
monitoring period (a month), parameter and limit, with the value the permittee reported for
that limit's statistic. It is read with every column as text, never changed.

What is carried over, and how:

- The permit is one industrial user: ``user_id`` = the NPDES id, ``permit_no`` the same,
  ``permit_effective`` / ``permit_expires`` = the limits' first begin and last end dates.
- A monthly average concentration limit (statistical base ``DB``, "DAILY AV", with a
  concentration limit ``C2`` in mg/L: the average of the daily values over the month) is a
  ``permit_limits`` row of limit_type ``monthly_avg``, and each month's reported value is one
  composite ``lab_results`` row dated the period's last day, so the pipeline's monthly average
  of that month is the reported value itself. A value reported as ``<X`` is the non-detect
  ``<X``.
- pH (``00400``): the minimum (``ME``) and maximum (``MB``) limits are per-sample ``min`` and
  ``max`` limits, and the month's reported minimum and maximum are two grab results.
- Everything else is left out and listed by :func:`echo_skipped` with the reason: loads in lb/d
  and flow (not concentrations), E. coli (CFU/100 mL, not a unit of the contract), monthly
  minimums and maximums (no such kind of limit in the contract), and single-grab maximums
  (``SG``): a month's highest grab is not a sample of the file, and written as one it would
  change that month's average.

Parameters are named by their code: ``80082`` BOD, carbonaceous (5 day, 20 C) -> ``CBOD``
(kept apart from the contract's ``BOD``: a carbonaceous BOD is not the five-day BOD the Part 2
limit is written for); ``00530`` total suspended solids -> ``TSS``; ``00610`` ammonia nitrogen
-> ``ammonia_nitrogen``; ``00400`` -> ``pH``.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from outfall.demo.real import LAB_COLUMNS, REAL_DIR, write_csv

ECHO_FILE = "echo_effluent_chart_TX0119407.csv"
ECHO_LAB = "EPA ECHO discharge monitoring report"

#: ECHO parameter code -> the contract's parameter name.
PARAMETERS = {"80082": "CBOD", "00530": "TSS", "00610": "ammonia_nitrogen", "00400": "pH"}
#: (statistical base code, limit value type code) -> (limit_type, sample_type).
CONCENTRATION_LIMITS = {("DB", "C2"): ("monthly_avg", "composite")}
PH_LIMITS = {"ME": "min", "MB": "max"}
#: The statistical bases carried over, in words.
BASE_WORDS = {"DB": "monthly average (DMR statistic 'DAILY AV')", "MB": "maximum", "ME": "minimum"}
UNITS = {"mg/L": "mg/L", "SU": "s.u."}

USER_COLUMNS = [
    "user_id",
    "name",
    "district",
    "address",
    "permit_no",
    "permit_effective",
    "permit_expires",
    "normal_avg_flow_gpd",
]
LIMIT_COLUMNS = [
    "user_id",
    "parameter",
    "limit_type",
    "value",
    "unit",
    "basis",
    "effective_from",
    "effective_to",
]


def read_echo(path: Path | str | None = None) -> pd.DataFrame:
    """The effluent chart as text, every column (codes keep their leading zeros)."""
    return pd.read_csv(REAL_DIR / ECHO_FILE if path is None else Path(path), dtype=str, keep_default_na=False)


def _iso(mdy: pd.Series) -> pd.Series:
    return pd.to_datetime(mdy, format="%m/%d/%Y").dt.strftime("%Y-%m-%d")


def _kind(row: pd.Series) -> tuple[str, str] | None:
    """(limit_type, sample_type) of a row that is carried over, else None."""
    if row["parameter_code"] not in PARAMETERS or row["limit_unit_desc"] not in UNITS:
        return None
    if row["parameter_code"] == "00400":
        kind = PH_LIMITS.get(row["statistical_base_code"])
        return (kind, "grab") if kind else None
    return CONCENTRATION_LIMITS.get((row["statistical_base_code"], row["limit_value_type_code"]))


def _selected(chart: pd.DataFrame) -> pd.DataFrame:
    kinds = chart.apply(_kind, axis=1)
    out = chart[kinds.notna()].copy()
    out["limit_type"] = [k[0] for k in kinds[kinds.notna()]]
    out["sample_type"] = [k[1] for k in kinds[kinds.notna()]]
    return out


def echo_skipped(chart: pd.DataFrame) -> pd.DataFrame:
    """The limits left out (parameter, statistic, unit) with the number of monthly values and why."""
    kinds = chart.apply(_kind, axis=1)
    left = chart[kinds.isna()]

    def why(r: pd.Series) -> str:
        if r["limit_unit_desc"] in ("lb/d", "MGD"):
            return "a load or a flow, not a concentration"
        if r["limit_unit_desc"] not in UNITS:
            return f"unit {r['limit_unit_desc']} is not a unit of the contract"
        if r["statistical_base_code"] == "SG":
            return "a month's highest single grab: not a sample of the file"
        if r["statistical_base_code"] in ("MO", "MN"):
            return "a monthly minimum or maximum: no such kind of limit in the contract"
        return "not a parameter the adapter carries"

    if left.empty:
        return pd.DataFrame(columns=["parameter", "statistic", "unit", "values", "why"])
    grouped = left.groupby(
        ["parameter_desc", "statistical_base_short_desc", "limit_unit_desc"], as_index=False
    )
    out = grouped.agg(
        values=("dmr_value_id", "count"),
        first=("parameter_code", "first"),
        base=("statistical_base_code", "first"),
    )
    out["why"] = [
        why(pd.Series({"limit_unit_desc": u, "parameter_code": p, "statistical_base_code": b}))
        for u, p, b in zip(out["limit_unit_desc"], out["first"], out["base"])
    ]
    return out.rename(
        columns={
            "parameter_desc": "parameter",
            "statistical_base_short_desc": "statistic",
            "limit_unit_desc": "unit",
        }
    )[["parameter", "statistic", "unit", "values", "why"]]


def echo_inputs(path: Path | str | None = None, district: str = "consolidated") -> dict[str, pd.DataFrame]:
    """The contract's ``industrial_users``, ``permit_limits`` and ``lab_results`` rows of the chart."""
    chart = read_echo(path)
    rows = _selected(chart)
    npdes = chart["npdes_id"].iloc[0]
    outfall_no = chart["perm_feature_nmbr"].iloc[0]
    return {
        "industrial_users": _echo_user(chart, npdes, outfall_no, district),
        "permit_limits": _echo_limits(rows, npdes, outfall_no),
        "lab_results": _echo_lab(rows, npdes),
    }


def _echo_user(chart: pd.DataFrame, npdes: str, outfall_no: str, district: str) -> pd.DataFrame:
    """The permittee as an industrial user, its permit from the chart's first limit to its last."""
    return pd.DataFrame(
        [
            {
                "user_id": npdes,
                "name": f"NPDES permit {npdes}, outfall {outfall_no} (EPA ECHO effluent chart)",
                "district": district,
                "address": None,
                "permit_no": npdes,
                "permit_effective": pd.to_datetime(chart["limit_begin_date"], format="%m/%d/%Y")
                .min()
                .strftime("%Y-%m-%d"),
                "permit_expires": pd.to_datetime(chart["limit_end_date"], format="%m/%d/%Y")
                .max()
                .strftime("%Y-%m-%d"),
                "normal_avg_flow_gpd": None,
            }
        ],
        columns=USER_COLUMNS,
    )


def _echo_limits(rows: pd.DataFrame, npdes: str, outfall_no: str) -> pd.DataFrame:
    """Each limit of the chart once, by parameter and kind."""
    limits = rows.drop_duplicates(
        ["parameter_code", "limit_type", "limit_value_nmbr", "limit_begin_date", "limit_end_date"]
    )
    return (
        pd.DataFrame(
            {
                "user_id": npdes,
                "parameter": limits["parameter_code"].map(PARAMETERS),
                "limit_type": limits["limit_type"],
                "value": limits["limit_value_nmbr"],
                "unit": limits["limit_unit_desc"].map(UNITS),
                "basis": (
                    f"NPDES permit {npdes}, outfall {outfall_no}: "
                    + limits["statistical_base_code"].map(BASE_WORDS)
                    + " limit of "
                    + limits["parameter_desc"]
                    + " (EPA ECHO effluent chart)"
                ),
                "effective_from": _iso(limits["limit_begin_date"]),
                "effective_to": _iso(limits["limit_end_date"]),
            },
            columns=LIMIT_COLUMNS,
        )
        .sort_values(["parameter", "limit_type"])
        .reset_index(drop=True)
    )


def _echo_lab(rows: pd.DataFrame, npdes: str) -> pd.DataFrame:
    """The monthly DMR values reported, as lab results (a "<" kept with its number)."""
    values = rows[rows["dmr_value_nmbr"].str.strip() != ""]
    qualifier = values["dmr_value_qualifier_code"].str.strip()
    number = values["dmr_value_nmbr"].str.strip()
    lab = pd.DataFrame(
        {
            "sample_id": "ECHO-" + values["dmr_value_id"],
            "user_id": npdes,
            "collected_at": _iso(values["monitoring_period_end_date"]),
            "sample_type": values["sample_type"],
            "parameter": values["parameter_code"].map(PARAMETERS),
            "result": (qualifier.where(qualifier == "<", "") + number),
            "unit": values["dmr_unit_desc"].map(UNITS),
            "mdl": None,
            "lab": ECHO_LAB,
            "method": "monthly DMR value, " + values["statistical_base_code"].map(BASE_WORDS),
        },
        columns=LAB_COLUMNS,
    )
    return lab.sort_values(["collected_at", "parameter", "sample_id"], kind="stable").reset_index(drop=True)


def write_echo_inputs(out_dir: Path | str, path: Path | str | None = None) -> dict[str, int]:
    """Write the three folders under ``out_dir`` (``<dataset>/echo_TX0119407.csv``); rows per dataset."""
    written = {}
    for dataset, frame in echo_inputs(path).items():
        written[dataset] = write_csv(frame, Path(out_dir) / dataset / "echo_TX0119407.csv")
    return written
