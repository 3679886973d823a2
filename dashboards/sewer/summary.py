"""The sewer page's summaries: each user's year to date, the violations by user and month, the heat map
and the flow chart of one user."""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np
import pandas as pd

from dashboards.html import (
    Chart,
    esc,
    is_missing,
    local_naive,
    months_words,
)
from dashboards.sewer.data import SewerData, _frame
from dashboards.sewer_flow import draw_flow_chart, flow_inputs, slug_words

# ----------------------------------------------------------------------- summary


def user_summary(data: SewerData) -> pd.DataFrame:
    """One row per industrial user: permit, days left, and this year's counts to the as-of month."""
    rows = _registered_rows(_frame(data.users))
    summary = _frame(data.summary)
    as_of = pd.Timestamp(data.as_of)
    if not summary.empty:
        _merge_monthly_summary(rows, summary, pd.Timestamp(dt.date(data.as_of.year, 1, 1)), as_of)
    out = pd.DataFrame(list(rows.values()))
    if out.empty:
        return out
    return _fill_permit_days(out, as_of).sort_values("user_id").reset_index(drop=True)


def _registered_rows(users: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """A row per registered user, by id: its name, district and permit."""
    rows: dict[str, dict[str, Any]] = {}
    for _, u in users.iterrows():
        rows[str(u["user_id"])] = {
            "user_id": str(u["user_id"]),
            "name": u.get("name"),
            "district": u.get("district"),
            "permit_no": u.get("permit_no"),
            "permit_expires": u.get("permit_expires"),
        }
    return rows


def _merge_monthly_summary(
    rows: dict[str, dict[str, Any]], summary: pd.DataFrame, year_start: pd.Timestamp, as_of: pd.Timestamp
) -> None:
    """Into ``rows``: each user's latest permit fields of the monthly summary, and its counts of the year
    to the as-of month (a user with no registration gets a row of its own)."""
    s = summary.copy()
    s["month"] = pd.to_datetime(s["month"])
    ytd = s[(s["month"] >= year_start) & (s["month"] <= as_of)]
    latest = s.sort_values("month").groupby("user_id").last()
    for uid, r in latest.iterrows():
        _take_permit_fields(rows.setdefault(str(uid), {"user_id": str(uid)}), r)
    counts, worst_param = _year_counts(ytd)
    for uid, r in counts.iterrows():
        row = rows.setdefault(str(uid), {"user_id": str(uid)})
        row.update({k: r[k] for k in counts.columns})
        row["worst_parameter"] = worst_param.get(uid)


def _take_permit_fields(row: dict[str, Any], r: pd.Series) -> None:
    """The permit fields of a user's latest summary month, except a blank over a registered value."""
    for key in ("name", "permit_no", "permit_expires", "days_left", "permit_expiry_flag", "permit_status"):
        if key in r.index and not (key in row and not is_missing(row[key]) and is_missing(r[key])):
            row[key] = r[key]


def _year_counts(ytd: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series]:
    """Per user, the year's counts and worst exceedance, and the parameter of that worst exceedance."""
    counts = ytd.groupby("user_id").agg(
        samples=("samples_taken", "sum"),
        violations=("violations", "sum"),
        statistic_violations=("statistic_violations", "sum"),
        inconclusive=("inconclusive", "sum"),
        slugs=("slugs", "sum"),
        worst=("worst_exceedance_ratio", "max"),
    )
    worst_param = (
        ytd.dropna(subset=["worst_exceedance_ratio"])
        .sort_values("worst_exceedance_ratio")
        .groupby("user_id")["worst_parameter"]
        .last()
    )
    return counts, worst_param


def _fill_permit_days(out: pd.DataFrame, as_of: pd.Timestamp) -> pd.DataFrame:
    """Every count column present; days left for every user; the expiry flag never blank."""
    for col in ("samples", "violations", "statistic_violations", "inconclusive", "slugs"):
        if col not in out:
            out[col] = np.nan
    # users without a compliance_summary row: days left from the permit's expiry date; the flag is the
    # compliance summary's only (the page does not judge permits itself)
    expires = (
        pd.to_datetime(out["permit_expires"])
        if "permit_expires" in out
        else pd.Series(pd.NaT, index=out.index)
    )
    computed = (expires - as_of).dt.days
    out["days_left"] = (
        pd.to_numeric(out["days_left"], errors="coerce").fillna(computed) if "days_left" in out else computed
    )
    flag = out["permit_expiry_flag"] if "permit_expiry_flag" in out else pd.Series(False, index=out.index)
    out["permit_expiry_flag"] = flag.astype(object).where(flag.notna(), False).astype(bool)
    return out


def monthly_violations(data: SewerData) -> pd.DataFrame:
    """user_id, month (Timestamp), violations (per-sample + statistic)."""
    summary = _frame(data.summary)
    if not summary.empty:
        s = summary[["user_id", "month"]].copy()
        s["month"] = pd.to_datetime(summary["month"])
        s["count"] = summary["violations"].fillna(0).astype(int) + summary.get(
            "statistic_violations", pd.Series(0, index=summary.index)
        ).fillna(0).astype(int)
        return s.groupby(["user_id", "month"], as_index=False)["count"].sum()
    parts = []
    v = _frame(data.violations)
    if not v.empty:
        t = local_naive(v["collected_at"])
        parts.append(pd.DataFrame({"user_id": v["user_id"], "month": t.dt.to_period("M").dt.to_timestamp()}))
    sv = _frame(data.statistic_violations)
    if not sv.empty:
        t = pd.to_datetime(sv["period_start"])
        parts.append(pd.DataFrame({"user_id": sv["user_id"], "month": t.dt.to_period("M").dt.to_timestamp()}))
    if not parts:
        return pd.DataFrame(columns=["user_id", "month", "count"])
    allv = pd.concat(parts)
    return allv.groupby(["user_id", "month"], as_index=False).size().rename(columns={"size": "count"})


def _user_label(uid: str, names: dict[str, Any], width: int = 34) -> str:
    name = names.get(uid)
    if is_missing(name):
        return uid
    text = str(name)
    if len(text) > width:
        text = text[: width - 1] + "…"
    return f"{uid} · {text}"


def heatmap_chart(data: SewerData, summary: pd.DataFrame) -> Chart | None:
    monthly = monthly_violations(data)
    users = list(summary["user_id"]) if not summary.empty else []
    users += sorted(set(monthly["user_id"]) - set(users))  # users with violations but no registration
    if not users:
        return None
    names = dict(zip(summary["user_id"], summary["name"])) if not summary.empty and "name" in summary else {}
    if monthly.empty:
        months = [pd.Timestamp(data.as_of).to_period("M").to_timestamp()]
    else:
        months = list(pd.date_range(monthly["month"].min(), monthly["month"].max(), freq="MS"))
    pivot = (
        monthly.pivot_table(index="user_id", columns="month", values="count", aggfunc="sum")
        .reindex(index=users, columns=months)
        .fillna(0)
    )
    totals = pivot.sum(axis=1)
    order = sorted(users, key=lambda u: (-totals.get(u, 0), u))
    z = pivot.reindex(order).to_numpy(dtype=float)
    zmax = max(1.0, float(z.max()) if z.size else 1.0)
    trace = {
        "type": "heatmap",
        "z": z.astype(int).tolist(),
        "x": [m.strftime("%b %Y") for m in months],
        "y": [esc(_user_label(u, names)) for u in order],  # Plotly reads tags in labels: escape
        "text": [[str(int(v)) if v else "" for v in row] for row in z],
        "texttemplate": "%{text}",
        "customdata": [[u] * len(months) for u in order],
        "xgap": 2,
        "ygap": 2,
        "zmin": 0,
        "zmax": zmax,
        "colorscale": [
            [0, "#f8fafc"],
            [0.0001, "#fee2e2"],
            [0.35, "#fca5a5"],
            [0.7, "#ef4444"],
            [1, "#7f1d1d"],
        ],
        "colorbar": {"title": {"text": "violations"}, "thickness": 12},
        "hovertemplate": "%{y}<br>%{x}: %{z} violation(s)<extra>click: the user's charts</extra>",
    }
    layout = {
        "margin": {"l": 250, "r": 20, "t": 20, "b": 60},
        "xaxis": {"title": {"text": "month of the sample (local)"}, "type": "category", "showgrid": False},
        "yaxis": {"autorange": "reversed", "showgrid": False, "type": "category", "ticks": ""},
    }
    return Chart(
        "violations-heatmap",
        {"data": [trace], "layout": layout},
        caption=(
            f"Violations of single samples, daily maximums and monthly averages by the local "
            f"month of the sample, {months_words(months[0], months[-1])}; users with the most "
            f"violations first. Click a row to open that user's control charts."
        ),
        height=90 + 24 * len(order),
        print_height=80 + 18 * len(order),
        click_anchor_prefix="user-",
    )


def flow_chart(
    uid: str,
    data: SewerData,
    flow: pd.DataFrame,
    slugs: pd.DataFrame,
    baselines: pd.DataFrame,
    gaps: pd.DataFrame,
    words: tuple[str, str] | None = None,
) -> Chart | None:
    """One user's flow and probe traces from that user's rows of SewerData.flow, slugs, baselines
    and gaps (frames). ``words``: slug_words(data.slug_rules), when the caller has it already. The
    page splits every meter's rows at once instead (flow_inputs) and calls draw_flow_chart."""
    inputs = flow_inputs(flow, slugs, baselines, gaps).get(uid)
    if inputs is None:
        return None
    return draw_flow_chart(uid, inputs, words if words is not None else slug_words(data.slug_rules))
