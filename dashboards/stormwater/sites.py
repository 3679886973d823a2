"""Each construction site's status, and the storm rule's words."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pandas as pd

from dashboards.html import (
    frames,
    is_missing,
)
from dashboards.stormwater.data import STATUS_ORDER, StormwaterData
from outfall.law import swppp as law
from outfall.rules import RulesError


def _d(value: Any) -> pd.Timestamp | None:
    if is_missing(value):
        return None
    return pd.Timestamp(value).normalize()


def site_status(data: StormwaterData) -> pd.DataFrame:
    """One row per site: classification, counts of findings and notices, last inspection, status."""
    sites, cls, findings, other, notices, insp = frames(
        data, "sites", "classification", "findings", "other", "notices", "inspections"
    )
    as_of = pd.Timestamp(data.as_of)
    out = _site_rows(sites, cls)
    if out is None:
        return pd.DataFrame()
    out = _with_classification(out, cls)
    _add_counts(out, findings, other, notices)
    _add_inspections(out, insp)
    out["status"] = out.apply(lambda r: _site_status_of(r, other, as_of), axis=1)
    starts = out["construction_start"] if "construction_start" in out else pd.Series(None, index=out.index)
    out["started"] = [(s := _d(d)) is None or s <= as_of for d in starts]
    out["_order"] = out["status"].map(STATUS_ORDER).fillna(9)
    return out.sort_values(["_order", "site_id"]).drop(columns="_order").reset_index(drop=True)


_SITE_COLS = (
    "site_id",
    "jurisdiction",
    "name",
    "applicant",
    "address",
    "disturbed_acres",
    "construction_start",
    "final_stabilization",
    "rain_gauge_id",
    "exempt",
)
_CLASSIFICATION_COLS = (
    "conditions",
    "inspections_required",
    "active",
    "judged_through",
    "reason",
    "inspector",
)


def _site_rows(sites: pd.DataFrame, cls: pd.DataFrame) -> pd.DataFrame | None:
    """A row per site from the sites (or, without them, the classification); None without either."""
    source = sites if not sites.empty else cls
    if source.empty:
        return None
    return source[[c for c in _SITE_COLS if c in source]].drop_duplicates("site_id").copy()


def _with_classification(out: pd.DataFrame, cls: pd.DataFrame) -> pd.DataFrame:
    """Each site's classification beside it (blank columns when there is none)."""
    if not cls.empty:
        keep = [c for c in ("site_id", *_CLASSIFICATION_COLS) if c in cls]
        out = out.merge(cls[keep].drop_duplicates("site_id"), on="site_id", how="left")
    for col in _CLASSIFICATION_COLS:
        if col not in out:
            out[col] = None
    return out


def _per_site(frame: pd.DataFrame, mask=None) -> pd.Series:
    """The rows of ``frame`` (those ``mask`` keeps) counted per site."""
    if frame.empty:
        return pd.Series(dtype=int)
    f = frame if mask is None else frame[mask(frame)]
    return f.groupby("site_id").size()


def _add_counts(
    out: pd.DataFrame, findings: pd.DataFrame, other: pd.DataFrame, notices: pd.DataFrame
) -> None:
    """Each site's late and overdue findings, other findings and notices."""
    out["late"] = (
        out["site_id"].map(_per_site(findings, lambda f: f["status"] == "late")).fillna(0).astype(int)
    )
    out["overdue"] = (
        out["site_id"].map(_per_site(findings, lambda f: f["status"] == "overdue")).fillna(0).astype(int)
    )
    out["other_findings"] = out["site_id"].map(_per_site(other)).fillna(0).astype(int)
    out["notices"] = out["site_id"].map(_per_site(notices)).fillna(0).astype(int)


def _add_inspections(out: pd.DataFrame, insp: pd.DataFrame) -> None:
    """Each site's last inspection day and its number of inspections."""
    if not insp.empty:
        last = insp.groupby("site_id")["inspected_on"].max()
        n = insp.groupby("site_id").size()
        out["last_inspection"] = out["site_id"].map(last)
        out["inspections"] = out["site_id"].map(n).fillna(0).astype(int)
    else:
        out["last_inspection"] = None
        out["inspections"] = 0


def _site_status_of(r: pd.Series, other: pd.DataFrame, as_of: pd.Timestamp) -> str:
    """A site's status: overdue, late, not required, not started (its construction starts after the day
    judged), stabilized or in compliance (the first that holds)."""
    if r["overdue"] > 0 or _other_overdue(other, r["site_id"]):
        return "overdue"
    if r["late"] > 0 or r["other_findings"] > 0:
        return "late"
    required = r.get("inspections_required")
    if required is False or (is_missing(required) and bool(r.get("exempt"))):
        return "not required"
    start = _d(r.get("construction_start"))
    if start is not None and start > as_of:
        return "not started"
    stab = _d(r.get("final_stabilization"))
    if stab is not None and stab <= as_of:
        return "stabilized"
    return "in compliance"


def _other_overdue(other: pd.DataFrame, site_id: str) -> bool:
    if other.empty or "status" not in other:
        return False
    return bool(((other["site_id"] == site_id) & (other["status"] == "overdue")).any())


def _storm_rule(data: StormwaterData, jurisdiction: Any, day: dt.date) -> tuple[Any, Any]:
    """(the jurisdiction's rules, its storm inspection rule in effect on ``day``); either may be None."""
    rules = data.rules.get(str(jurisdiction)) if not is_missing(jurisdiction) else None
    version = rules.swppp.storm_inspection.get(day) if rules is not None and rules.swppp else None
    return rules, version


def _threshold_words(storm_rule: Any) -> str:
    """The storm threshold as the law counts it: '0.5 in' (at least), or 'more than 0.5 in'."""
    amount = f"{float(storm_rule.threshold_in):g} in"
    return f"more than {amount}" if getattr(storm_rule, "counts", "at_least") == "more_than" else amount


def _storm_window_words(data: StormwaterData) -> str:
    """'on the day of or the day after' (a window of 1 day), from each jurisdiction's storm rule of the
    day."""
    windows = sorted(
        {int(v.window_days) for j in data.rules if (v := _storm_rule(data, j, data.as_of)[1]) is not None}
    )
    if not windows:
        return "by the rules' window after"
    words = [
        "on the day of"
        if w == 0
        else "on the day of or the day after"
        if w == 1
        else f"on the day of or within {w} days after"
        for w in windows
    ]
    return " or ".join(words)


def _is_storm(rules: Any, precip: float, day: dt.date) -> bool:
    """The law's own judgement of a storm day (outfall.law.swppp.is_storm); no rule that day: not one."""
    try:
        return rules is not None and law.is_storm(precip, rules, day)
    except RulesError:
        return False
