"""The sewer administrator's page: per industrial user, control charts of
every limited parameter (limit drawn and labelled with its section, violations
marked, non-detects as open markers at the detection value), the flow trace
with slug events and the baseline, a heat map of violations by user and month,
the compliance summary with permits expiring soon, and a calendar of the testing
required of each user (``dashboards.testing``).

Pure: ``build_sewer_page(SewerData) -> (html, PageMeta)``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from dashboards.figs import MS_PER_HOUR, grid, layout_key, legend_entry, typed, vrect
from dashboards.notices import notices_table, sewer_follow_up
from dashboards.testing import required_testing_section
from dashboards.html import (
    COLORS, Chart, Col, Kpi, PageMeta, axis_times, badge, esc, fmt_date, fmt_datetime, fmt_num, is_missing,
    join, kpis, local_naive, no_data, note, page, section, short_rule, slug, table,
)

PARAMETER_ORDER = ["BOD", "COD", "TSS", "chlorine_demand", "FOG", "pH", "temperature"]
PARAMETER_LABEL = {"chlorine_demand": "chlorine demand", "temperature": "temperature"}


@dataclass
class SewerData:
    """Frames read from the warehouse. ``None`` = the table does not exist yet.

    users: industrial_users (user_id, name, district, address, permit_no, permit_expires, normal_flow_gpd: the
    permit's average 24-hour flow in normal operation)
    results: one row per lab result: user_id, sample_id, parameter, collected_at, value, nondetect,
        qualifier, unit, sample_type, outcome (compliant | violation | inconclusive | None),
        limit_value, limit_type, exceedance_ratio, rule (of the violation when there is one)
    limits: the limit applied to each result: user_id, parameter, limit_type, limit_value, unit, rule,
        limit_source, collected_at
    violations: discharge_violations; statistic_violations; inconclusive: inconclusive_results
    summary: compliance_summary (per user and month)
    flow: downsampled flow: user_id, constituent, ts (local), value, unit, kind ('mean' | 'slug'), bucket_hours
    slugs: slug_events; baselines: user_id, constituent, local_day, baseline, threshold, baseline_source
    gaps: slug_baseline_gaps; snc: snc_determinations
    slug_rules: the slug definitions as applied (table slug_rules: effective_from, effective_to, ratio,
        min_duration_min, rule), for the labels; permit_warn_days / permit_warn_rule: the Town's policy for
        flagging expiring permits in effect on the as-of day (None: none is). Nothing here has a default
        that restates the law: the labels say what the rules and the warehouse say.
    """

    as_of: dt.date
    generated_at: dt.datetime | None = None
    town: str = ""  # whom the page is about (printed atop each paper page)
    users: pd.DataFrame | None = None
    results: pd.DataFrame | None = None
    limits: pd.DataFrame | None = None
    violations: pd.DataFrame | None = None
    statistic_violations: pd.DataFrame | None = None
    inconclusive: pd.DataFrame | None = None
    summary: pd.DataFrame | None = None
    flow: pd.DataFrame | None = None
    slugs: pd.DataFrame | None = None
    baselines: pd.DataFrame | None = None
    gaps: pd.DataFrame | None = None
    snc: pd.DataFrame | None = None
    slug_rules: pd.DataFrame | None = None
    # days of discharge without a permit (discharges_without_permit) and users whose permit
    # term is not on file (permit_dates_missing)
    without_permit: pd.DataFrame | None = None
    permit_dates_missing: pd.DataFrame | None = None
    permit_warn_days: int | None = None
    permit_warn_rule: str = ""
    # the monthly notices (table notices) and each violation's follow-up from its notice (sewer_notices)
    notices: pd.DataFrame | None = None
    follow_up: pd.DataFrame | None = None
    # each period of required testing (table required_testing, contract 6.3)
    required_testing: pd.DataFrame | None = None
    present: dict[str, bool] = field(default_factory=dict)  # table -> exists


def _frame(frame: pd.DataFrame | None) -> pd.DataFrame:
    return frame if frame is not None else pd.DataFrame()


def _param_key(p: str) -> tuple[int, str]:
    return (PARAMETER_ORDER.index(p) if p in PARAMETER_ORDER else len(PARAMETER_ORDER), str(p).lower())


def param_label(p: Any) -> str:
    return PARAMETER_LABEL.get(str(p), str(p))


def _num(v: Any, digits: int = 3) -> str:
    """A measurement without trailing zeros (240, 5.49, 0.012)."""
    if is_missing(v):
        return ""
    text = f"{float(v):.{digits}f}".rstrip("0").rstrip(".")
    return text or "0"


# ----------------------------------------------------------------------- summary


def user_summary(data: SewerData) -> pd.DataFrame:
    """One row per industrial user: permit, days left, and this year's counts to the as-of month."""
    users = _frame(data.users)
    summary = _frame(data.summary)
    as_of = pd.Timestamp(data.as_of)
    year_start = pd.Timestamp(dt.date(data.as_of.year, 1, 1))
    rows: dict[str, dict[str, Any]] = {}
    for _, u in users.iterrows():
        rows[str(u["user_id"])] = {
            "user_id": str(u["user_id"]), "name": u.get("name"), "district": u.get("district"),
            "permit_no": u.get("permit_no"), "permit_expires": u.get("permit_expires")}
    if not summary.empty:
        s = summary.copy()
        s["month"] = pd.to_datetime(s["month"])
        ytd = s[(s["month"] >= year_start) & (s["month"] <= as_of)]
        counts = ytd.groupby("user_id").agg(
            samples=("samples_taken", "sum"), violations=("violations", "sum"),
            statistic_violations=("statistic_violations", "sum"), inconclusive=("inconclusive", "sum"),
            slugs=("slugs", "sum"), worst=("worst_exceedance_ratio", "max"))
        worst_param = (ytd.dropna(subset=["worst_exceedance_ratio"])
                       .sort_values("worst_exceedance_ratio").groupby("user_id")["worst_parameter"].last())
        latest = s.sort_values("month").groupby("user_id").last()
        for uid, r in latest.iterrows():
            row = rows.setdefault(str(uid), {"user_id": str(uid)})
            for key in ("name", "permit_no", "permit_expires", "days_left", "permit_expiry_flag", "permit_status"):
                if key in r.index and not (key in row and not is_missing(row[key]) and is_missing(r[key])):
                    row[key] = r[key]
        for uid, r in counts.iterrows():
            row = rows.setdefault(str(uid), {"user_id": str(uid)})
            row.update({k: r[k] for k in counts.columns})
            row["worst_parameter"] = worst_param.get(uid)
    out = pd.DataFrame(list(rows.values()))
    if out.empty:
        return out
    for col in ("samples", "violations", "statistic_violations", "inconclusive", "slugs"):
        if col not in out:
            out[col] = np.nan
    # users without a compliance_summary row: days left from the permit's expiry date; the flag is the
    # compliance summary's only (the page does not judge permits itself)
    expires = pd.to_datetime(out["permit_expires"]) if "permit_expires" in out else pd.Series(pd.NaT, index=out.index)
    computed = (expires - as_of).dt.days
    out["days_left"] = (pd.to_numeric(out["days_left"], errors="coerce").fillna(computed) if "days_left" in out
                        else computed)
    flag = out["permit_expiry_flag"] if "permit_expiry_flag" in out else pd.Series(False, index=out.index)
    out["permit_expiry_flag"] = flag.astype(object).where(flag.notna(), False).astype(bool)
    return out.sort_values("user_id").reset_index(drop=True)


def slug_words(rules: pd.DataFrame | None) -> tuple[str, str]:
    """(the slug definition in words, its citation) from the slug rules as applied: one version, or each
    with its first day ('from 2027-03-01: more than 4 × ...')."""
    rules = _frame(rules)
    if rules.empty:
        return "readings above the slug threshold of their day", ""

    def words(r: pd.Series) -> str:
        return (f"readings more than {_num(r['ratio'])} × the baseline for longer than "
                f"{_num(r['min_duration_min'])} minutes")

    rows = rules.sort_values("effective_from")
    if len(rows) == 1:
        r = rows.iloc[0]
        return words(r), str(r["rule"])
    return ("; ".join(f"from {fmt_date(r['effective_from'])}: {words(r)}" for _, r in rows.iterrows()),
            "; ".join(dict.fromkeys(str(r) for r in rows["rule"])))


def monthly_violations(data: SewerData) -> pd.DataFrame:
    """user_id, month (Timestamp), violations (per-sample + statistic)."""
    summary = _frame(data.summary)
    if not summary.empty:
        s = summary[["user_id", "month"]].copy()
        s["month"] = pd.to_datetime(summary["month"])
        s["count"] = summary["violations"].fillna(0).astype(int) + summary.get(
            "statistic_violations", pd.Series(0, index=summary.index)).fillna(0).astype(int)
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
    pivot = (monthly.pivot_table(index="user_id", columns="month", values="count", aggfunc="sum")
             .reindex(index=users, columns=months).fillna(0))
    totals = pivot.sum(axis=1)
    order = sorted(users, key=lambda u: (-totals.get(u, 0), u))
    z = pivot.reindex(order).to_numpy(dtype=float)
    zmax = max(1.0, float(z.max()) if z.size else 1.0)
    trace = {
        "type": "heatmap", "z": z.astype(int).tolist(), "x": [m.strftime("%Y-%m") for m in months],
        "y": [esc(_user_label(u, names)) for u in order],  # Plotly reads tags in labels: escape
        "text": [[str(int(v)) if v else "" for v in row] for row in z], "texttemplate": "%{text}",
        "customdata": [[u] * len(months) for u in order], "xgap": 2, "ygap": 2, "zmin": 0, "zmax": zmax,
        "colorscale": [[0, "#f8fafc"], [0.0001, "#fee2e2"], [0.35, "#fca5a5"], [0.7, "#ef4444"], [1, "#7f1d1d"]],
        "colorbar": {"title": {"text": "violations"}, "thickness": 12},
        "hovertemplate": "%{y}<br>%{x}: %{z} violation(s)<extra>click: the user's charts</extra>"}
    layout = {"margin": {"l": 250, "r": 20, "t": 20, "b": 60},
              "xaxis": {"title": {"text": "month of the sample (local)"}, "type": "category", "showgrid": False},
              "yaxis": {"autorange": "reversed", "showgrid": False, "type": "category", "ticks": ""}}
    return Chart("violations-heatmap", {"data": [trace], "layout": layout},
                 caption=("Per-sample and statistic (daily maximum, monthly average) violations by the local "
                          "month of the sample; users with the most violations first. Click a row to open that "
                          "user's control charts."),
                 height=90 + 24 * len(order), click_anchor_prefix="user-")


# ----------------------------------------------------------------------- control chart

# outcome code -> (legend name, color, symbol, size)
OUTCOME_STYLE = {
    0: ("result", COLORS["result"], "circle", 6),
    1: ("non-detect (open circle at the detection value)", COLORS["nondetect"], "circle-open", 8),
    2: ("inconclusive: non-detect whose detection value is above the limit", COLORS["inconclusive"],
        "diamond-open", 11),
    3: ("violation", COLORS["violation"], "circle", 11),
}
_SCALE = [[0, OUTCOME_STYLE[0][1]], [0.25, OUTCOME_STYLE[0][1]], [0.25, OUTCOME_STYLE[1][1]],
          [0.5, OUTCOME_STYLE[1][1]], [0.5, OUTCOME_STYLE[2][1]], [0.75, OUTCOME_STYLE[2][1]],
          [0.75, OUTCOME_STYLE[3][1]], [1, OUTCOME_STYLE[3][1]]]


def outcome_codes(rp: pd.DataFrame) -> np.ndarray:
    """0 result, 1 non-detect, 2 inconclusive, 3 violation."""
    nd = rp["nondetect"].fillna(False).astype(bool).to_numpy()
    outcome = rp["outcome"].fillna("").to_numpy()
    codes = np.where(nd, 1, 0)
    codes = np.where(outcome == "inconclusive", 2, codes)
    return np.where(outcome == "violation", 3, codes)


def limit_steps(lim: pd.DataFrame) -> pd.DataFrame:
    """The rows of one limit type (in time order, column ``t``) where its value or rule changes:
    the corners of its step line and the starts of its labelled segments."""
    if lim.empty:
        return lim
    vals = lim["limit_value"].to_numpy(dtype=float)
    rules = lim["rule"].fillna("").astype(str).to_numpy()
    change = np.r_[True, (vals[1:] != vals[:-1]) | (rules[1:] != rules[:-1])]
    return lim[change]


def _hover(code: int, sample_id: Any, value: float, qualifier: Any, unit: str, limit_value: Any,
           limit_type: Any, ratio: Any, rule: Any) -> str:
    if code == 0:
        return ""
    if code in (1, 2):
        text = (f"ND at detection value {_num(value)} {unit}" if qualifier == "ND"
                else f"non-detect {esc(qualifier or '<')}{_num(value)} {unit}")
        text += f"<br>sample {esc(sample_id)}"
        if code == 2:
            text += "<br><b>inconclusive</b>: detection value above the limit (not a violation)"
        return text
    text = f"sample {esc(sample_id)}"
    if not is_missing(limit_value):
        r = f", {float(ratio):.2f}× the limit" if not is_missing(ratio) else ""
        text += (f"<br><b>violation</b> of {esc(limit_type)} {_num(limit_value)} {unit}{r}"
                 f"<br>{esc(short_rule(rule, 90))}")
    else:
        text += "<br><b>violation</b>"
    return text


def control_chart(uid: str, results: pd.DataFrame, limits: pd.DataFrame) -> Chart | None:
    """One panel per limited parameter (two columns when there are three or more), one time axis.

    ``results`` and ``limits`` are one user's, each with a local-time column ``t``."""
    by_param = dict(tuple(results.groupby("parameter"))) if not results.empty else {}
    limits_by_param = dict(tuple(limits.groupby("parameter"))) if not limits.empty else {}
    params = sorted((p for p in limits_by_param if p in by_param), key=_param_key)
    if not params:
        return None
    ncols = 2 if len(params) >= 3 else 1
    nrows = -(-len(params) // ncols)
    titles = []
    for p in params:
        rp = by_param[p]
        nv = int((rp["outcome"] == "violation").sum())
        nd = int(rp["nondetect"].fillna(False).astype(bool).sum())
        unit = rp["unit"].dropna().iloc[0] if rp["unit"].notna().any() else ""
        bits = [f"{len(rp)} result{'s' if len(rp) != 1 else ''}"]
        if nv:
            bits.append(f"<span style='color:{COLORS['violation']}'>{nv} violation{'s' if nv != 1 else ''}</span>")
        if nd:
            bits.append(f"{nd} non-detect{'s' if nd != 1 else ''}")
        titles.append(f"<b>{esc(param_label(p))}</b> ({esc(unit)}): {', '.join(bits)}")
    panel_px = 215
    plot_h = panel_px * nrows
    layout, refs = grid(nrows, ncols, titles=titles, vspace=min(0.3, 62 / plot_h) if nrows > 1 else 0,
                        hspace=0.07, count=len(params))
    traces: list[dict[str, Any]] = []
    for code in (0, 1, 2, 3):
        name, color, symbol, size = OUTCOME_STYLE[code]
        traces.append(legend_entry(name, mode="markers", marker={"color": color, "symbol": symbol, "size": size,
                                                                   "line": {"width": 2 if code in (1, 2) else 1,
                                                                            "color": color}}))
    traces.append(legend_entry("limit in effect (value and section labelled)", mode="lines",
                               line={"color": COLORS["limit"], "dash": "dash", "width": 2}))
    x_min, x_max = results["t"].min(), results["t"].max()
    for i, p in enumerate(params):
        xref, yref = refs[i]
        rp = by_param[p].sort_values("t")
        unit = rp["unit"].dropna().iloc[0] if rp["unit"].notna().any() else ""
        codes = outcome_codes(rp)
        hover = [_hover(int(c), *row, unit, *rest) for c, row, rest in zip(
            codes, zip(rp["sample_id"], rp["value"], rp["qualifier"]),
            zip(rp["limit_value"], rp["limit_type"], rp["exceedance_ratio"], rp["rule"]))]
        traces.append({
            "type": "scatter", "mode": "lines+markers", "xaxis": xref, "yaxis": yref, "showlegend": False,
            "name": esc(param_label(p)), "x": axis_times(rp["t"]), "y": typed(rp["value"].astype(float)),
            "line": {"color": COLORS["trend"], "width": 1},
            "marker": {"color": codes.tolist(), "cmin": -0.5, "cmax": 3.5, "colorscale": _SCALE,
                       "symbol": [OUTCOME_STYLE[c][2] for c in codes], "size": [OUTCOME_STYLE[c][3] for c in codes],
                       "line": {"width": 2, "color": codes.tolist(), "cmin": -0.5, "cmax": 3.5,
                                "colorscale": _SCALE}},
            "text": hover,
            "hovertemplate": f"%{{x|%Y-%m-%d %H:%M}}<br>{esc(param_label(p))} %{{y}} {esc(unit)}<br>%{{text}}"
                             "<extra></extra>"})
        for ltype, lim in limits_by_param[p].groupby("limit_type"):
            lim = lim.sort_values("t").drop_duplicates(subset=["t"], keep="last")
            steps = limit_steps(lim)
            xs = list(steps["t"])
            ys = [float(v) for v in steps["limit_value"]]
            if x_min < xs[0]:
                xs[0] = x_min
            xs.append(max(x_max, lim["t"].iloc[-1]))
            ys.append(ys[-1])
            traces.append({
                "type": "scatter", "mode": "lines", "xaxis": xref, "yaxis": yref, "showlegend": False,
                "x": axis_times(pd.Series(xs)), "y": ys, "line": {"color": COLORS["limit"], "width": 2,
                                                                  "dash": "dash", "shape": "hv"},
                "hovertemplate": f"{esc(ltype)} limit %{{y}} {esc(unit)}<extra></extra>"})
            for x, v, rule in zip(xs[:-1], steps["limit_value"], steps["rule"]):
                layout["annotations"].append({
                    "x": x.strftime("%Y-%m-%d %H:%M"), "y": float(v), "xref": xref, "yref": yref,
                    "text": esc(f"{ltype} {_num(v)} {unit} · {short_rule(rule, 72)}"),
                    "showarrow": False, "xanchor": "left", "yanchor": "bottom" if ltype == "max" else "top",
                    "font": {"size": 10, "color": COLORS["limit"]}, "bgcolor": "rgba(255,255,255,0.8)"})
        n = i + 1
        layout[layout_key(n, "y")].update({"title": {"text": esc(f"{param_label(p)} ({unit})"), "font": {"size": 11}}})
        layout[layout_key(n, "x")].update({"type": "date", "showticklabels": True})
    for n in range(len(params) - ncols + 1, len(params) + 1):
        layout[layout_key(n, "x")]["title"] = {"text": "sample collected (local time)", "font": {"size": 11}}
    layout["margin"] = {"l": 70, "r": 20, "t": 95, "b": 50}
    layout["legend"] = {"orientation": "h", "yref": "container", "y": 1, "yanchor": "top", "x": 0}
    return Chart(f"control-{uid}", {"data": traces, "layout": layout},
                 title="Control charts: every limited parameter",
                 caption=("Each dot is a result in time order. Open grey circles are non-detects drawn at their "
                          "detection value; red dots break the limit; orange diamonds are non-detects whose "
                          "detection value is above the limit (inconclusive, reported apart). The dashed line is "
                          "the limit in effect at each sample, labelled with its value and section."),
                 height=plot_h + 150)


# ----------------------------------------------------------------------- flow


def _regular_series(t: np.ndarray, values: np.ndarray, hours: int) -> tuple[str, int, np.ndarray]:
    """Means on a complete grid of buckets: (middle of the first bucket, step in ms, values with NaN gaps).
    ``t``: the buckets' local times (datetime64[ns]), ``values`` their means. A bucket's value is
    its first mean; a time off the grid is left out."""
    start = t.min()
    step = np.timedelta64(hours, "h")
    offset = t - start
    place = offset // step
    on_grid = offset % step == np.timedelta64(0, "ns")
    grid_values = np.full(int(place.max()) + 1, np.nan)
    # the first mean of each bucket wins: later ones are written first, then overwritten
    grid_values[place[on_grid][::-1]] = values[on_grid][::-1]
    middle = pd.Timestamp(start) + pd.Timedelta(minutes=30 * hours)
    return middle.strftime("%Y-%m-%d %H:%M"), hours * MS_PER_HOUR, grid_values.astype(np.float32)


def _by_time(t: np.ndarray) -> np.ndarray:
    """The order of ``t`` by time, ties in their given order (the page's query gives the means in
    time order and the readings in the order of their instants: then nothing moves, except a
    series with readings in a fall-back hour, whose repeated local times keep their instants'
    order)."""
    if len(t) < 2 or bool((t[1:] >= t[:-1]).all()):
        return np.arange(len(t))
    return np.argsort(t, kind="stable")


def _minutes(t: np.ndarray) -> np.ndarray:
    """Local times (datetime64) as 'YYYY-MM-DD HH:MM', all at once."""
    return np.char.replace(np.datetime_as_string(t.astype("datetime64[m]"), unit="m"), "T", " ")


# A meter's chart is made from its rows as arrays (FlowInputs), a page's 190 meters split once by
# position: per-meter frames, their columns read and filtered with pandas, cost 2.8 ms a chart.
@dataclass
class FlowInputs:
    """One user's rows for the flow chart, each a dict of equal-length arrays: flow (constituent,
    ts, kind, value, unit, bucket_hours: flow_arrays), slugs (constituent, start, end, head, tail,
    peak_value, peak_text: slug_arrays), baselines (constituent, day, baseline, threshold,
    baseline_source: baseline_arrays), gaps (constituent, first_day, last_day: gap_arrays)."""

    flow: dict[str, np.ndarray]
    slugs: dict[str, np.ndarray] | None = None
    baselines: dict[str, np.ndarray] | None = None
    gaps: dict[str, np.ndarray] | None = None


def _column(frame: pd.DataFrame, name: str, dtype: Any = object) -> np.ndarray:
    """A column as an array (all None when the frame has none)."""
    if name in frame:
        return frame[name].to_numpy(dtype=dtype)
    return np.full(len(frame), None, dtype=object)


def flow_arrays(flow: pd.DataFrame) -> dict[str, np.ndarray]:
    """SewerData.flow's columns as the chart reads them (local times as datetime64[ns])."""
    return {"constituent": _column(flow, "constituent"),
            "ts": local_naive(flow["ts"]).to_numpy(dtype="datetime64[ns]"),
            "kind": _column(flow, "kind"), "value": flow["value"].to_numpy(dtype=float),
            "unit": _column(flow, "unit"), "bucket_hours": flow["bucket_hours"].to_numpy(dtype=float)}


def slug_arrays(slugs: pd.DataFrame) -> dict[str, np.ndarray]:
    """The slug events' marks: local start and end ('YYYY-MM-DD HH:MM'), the hover text before and
    after the unit, the peak and its ratio's label, formatted all at once."""
    start = _minutes(local_naive(slugs["start_at"]).to_numpy(dtype="datetime64[ns]"))
    end = _minutes(local_naive(slugs["end_at"]).to_numpy(dtype="datetime64[ns]"))
    head = [f"<b>slug</b> {s} to {e[11:]} ({int(minutes)} min)<br>peak {_num(peak)} "
            for s, e, minutes, peak in zip(start, end, slugs["duration_min"], slugs["peak_value"])]
    tail = [f" = {float(ratio):.1f} × baseline {_num(base)}"
            for ratio, base in zip(slugs["peak_ratio"], slugs["baseline"])]
    return {"constituent": _column(slugs, "constituent"), "start": start.astype(object), "end": end.astype(object),
            "head": np.array(head, dtype=object), "tail": np.array(tail, dtype=object),
            "peak_value": slugs["peak_value"].to_numpy(dtype=float),
            "peak_text": np.array([f"{float(v):.1f}×" for v in slugs["peak_ratio"]], dtype=object)}


def baseline_arrays(bl: pd.DataFrame) -> dict[str, np.ndarray]:
    """The baselines' days in the frame's order (flow_inputs: those with a threshold, in day order
    within each series)."""
    return {"constituent": _column(bl, "constituent"),
            "day": pd.to_datetime(bl["local_day"]).to_numpy(dtype="datetime64[D]"),
            "baseline": bl["baseline"].to_numpy(dtype=float), "threshold": bl["threshold"].to_numpy(dtype=float),
            "baseline_source": _column(bl, "baseline_source")}


def gap_arrays(gaps: pd.DataFrame) -> dict[str, np.ndarray]:
    return {"constituent": _column(gaps, "constituent"),
            "first_day": pd.to_datetime(gaps["first_day"]).to_numpy(dtype="datetime64[D]"),
            "last_day": pd.to_datetime(gaps["last_day"]).to_numpy(dtype="datetime64[D]")}


def _take(arrays: dict[str, np.ndarray], rows: np.ndarray | slice) -> dict[str, np.ndarray]:
    return {name: a[rows] for name, a in arrays.items()}


def split_by_user(users: np.ndarray, arrays: dict[str, np.ndarray]) -> dict[Any, dict[str, np.ndarray]]:
    """Each user's rows (in their given order), by position: one stable sort when the rows are not
    grouped by user already (the page's queries give them grouped)."""
    if not len(users):
        return {}
    codes, uniques = pd.factorize(users, use_na_sentinel=False)   # numbered in order of first appearance
    if (np.diff(codes) < 0).any():   # a user's rows come after another's: not grouped
        order = np.argsort(codes, kind="stable")
        codes = codes[order]
        arrays = _take(arrays, order)
    starts = np.r_[0, np.flatnonzero(np.diff(codes)) + 1]
    ends = np.r_[starts[1:], len(codes)]
    return {uniques[codes[s]]: _take(arrays, slice(s, e)) for s, e in zip(starts, ends)}


def _of(arrays: dict[str, np.ndarray] | None, constituent: str) -> dict[str, np.ndarray] | None:
    """The rows of one constituent (all of them when it has no other: a meter's usual case); None
    when there is none."""
    if arrays is None or not len(arrays["constituent"]):
        return None
    mine = arrays["constituent"] == constituent
    if mine.all():
        return arrays
    return _take(arrays, mine) if mine.any() else None


def _mode(values: np.ndarray) -> Any:
    """The most frequent value that is not missing, the first in sort order among ties (pandas'
    mode); None when every value is missing."""
    codes, distinct = pd.factorize(values)   # a missing value: code -1
    if not len(distinct):
        return None
    counts = np.bincount(codes[codes >= 0], minlength=len(distinct))
    return min(distinct[counts == counts.max()])


def flow_chart(uid: str, data: SewerData, flow: pd.DataFrame, slugs: pd.DataFrame, baselines: pd.DataFrame,
               gaps: pd.DataFrame, words: tuple[str, str] | None = None) -> Chart | None:
    """One user's flow and probe traces from that user's rows of SewerData.flow, slugs, baselines
    and gaps (frames). ``words``: slug_words(data.slug_rules), when the caller has it already. The
    page splits every meter's rows at once instead (flow_inputs) and calls draw_flow_chart."""
    inputs = flow_inputs(flow, slugs, baselines, gaps).get(uid)
    if inputs is None:
        return None
    return draw_flow_chart(uid, inputs, words if words is not None else slug_words(data.slug_rules))


def flow_inputs(flow: pd.DataFrame, slugs: pd.DataFrame, baselines: pd.DataFrame,
                gaps: pd.DataFrame) -> dict[Any, FlowInputs]:
    """Every user's FlowInputs, each frame read and split once (the baselines in day order within
    each user and constituent)."""
    if flow.empty:
        return {}
    out = {u: FlowInputs(a) for u, a in split_by_user(flow["user_id"].to_numpy(dtype=object),
                                                       flow_arrays(flow)).items()}

    def attach(frame: pd.DataFrame, arrays: Any, name: str) -> None:
        if frame.empty:
            return
        for u, a in split_by_user(frame["user_id"].to_numpy(dtype=object), arrays(frame)).items():
            if u in out:
                setattr(out[u], name, a)

    attach(slugs, slug_arrays, "slugs")
    if not baselines.empty:
        drawn = baselines.dropna(subset=["threshold"])
        attach(drawn.sort_values(["user_id", "constituent", "local_day"], kind="stable"), baseline_arrays,
               "baselines")
    attach(gaps, gap_arrays, "gaps")
    return out


def draw_flow_chart(uid: str, inputs: FlowInputs, words: tuple[str, str]) -> Chart | None:
    """One user's flow and probe traces: a panel per constituent, flow first, with its means, the
    readings near slugs, the baseline and threshold, the slugs and the days without a baseline.
    ``words``: slug_words(the slug rules as applied)."""
    flow = inputs.flow
    if not len(flow["ts"]):
        return None
    constituent_of = flow["constituent"]
    constituents = sorted((c for c in pd.unique(constituent_of) if not is_missing(c)),
                          key=lambda c: (c != "flow", str(c)))
    n = len(constituents)
    panel_px = 300
    layout, refs = grid(n, 1, titles=[f"<b>{esc(c)}</b>" for c in constituents] if n > 1 else (),
                        vspace=70 / (panel_px * n) if n > 1 else 0)
    traces: list[dict[str, Any]] = []
    shown: set[str] = set()

    def legend(name: str) -> dict[str, Any]:
        first = name not in shown
        shown.add(name)
        return {"name": name, "legendgroup": name, "showlegend": first}

    mean_name = "mean"
    mean_names: list[str] = []
    definition, citation = words
    times, kinds, values, units, buckets = (flow["ts"], flow["kind"], flow["value"], flow["unit"],
                                            flow["bucket_hours"])
    for i, c in enumerate(constituents, start=1):
        xref, yref = refs[i - 1]
        rows = np.flatnonzero(constituent_of == c)
        unit = next((u for u in units[rows] if not is_missing(u)), "")
        known = buckets[rows][~np.isnan(buckets[rows])]
        hours = int(known.max()) if len(known) else 1
        mean_name = f"{'hourly' if hours == 1 else f'{hours}-hour'} mean"
        if mean_name not in mean_names:
            mean_names.append(mean_name)
        means = rows[kinds[rows] == "mean"]
        if len(means):
            means = means[_by_time(times[means])]
            x0, dx, ys = _regular_series(times[means], values[means], hours)
            traces.append({"type": "scatter", "mode": "lines", "xaxis": xref, "yaxis": yref, "x0": x0, "dx": dx,
                           "y": typed(ys, "f4"), "line": {"color": COLORS["flow"], "width": 1.2},
                           "hovertemplate": f"%{{x|%Y-%m-%d %H:%M}}<br>{mean_name}: %{{y:.3g}} {esc(unit)}"
                                            "<extra></extra>", **legend(mean_name)})
        raw = rows[kinds[rows] == "slug"]
        if len(raw):
            raw = raw[_by_time(times[raw])]
            t_raw = times[raw]
            gaps_t = np.diff(t_raw)
            # the median step between readings (pandas' median of the steps, in ns)
            step = (pd.Timedelta(float(np.median(gaps_t.astype(np.int64).astype(np.float64))))
                    if len(gaps_t) else pd.Timedelta(minutes=15))
            wide = max(step * 3, pd.Timedelta(minutes=1)).to_timedelta64()
            brk = np.concatenate([[False], gaps_t > wide])  # a new slug's window
            # a gap before each new window: a point without a value at the last one's time. Times and
            # values as typed arrays (the times the local minutes, in ms as a date axis reads them):
            # 290,000 readings near a year's slugs as text took half a second and 8 MB of the page
            at = np.flatnonzero(brk)
            minute_ms = t_raw.astype("datetime64[m]").astype(np.int64).astype(np.float64) * 60_000.0
            xs = np.insert(minute_ms, at, minute_ms[at - 1])
            ys_raw = np.insert(np.round(values[raw], 4), at, np.nan)
            traces.append({"type": "scatter", "mode": "lines+markers", "xaxis": xref, "yaxis": yref,
                           "x": typed(xs, "f8"),
                           "y": typed(ys_raw, "f8"), "line": {"color": COLORS["slug"], "width": 1},
                           "marker": {"size": 3, "color": COLORS["slug"]},
                           "hovertemplate": f"%{{x|%Y-%m-%d %H:%M}}<br>reading: %{{y:.3g}} {esc(unit)}<extra></extra>",
                           **legend("every reading near a slug")})
        bl = _of(inputs.baselines, c)
        if bl is not None:
            # each day's step, and one more day to close the last: as arrays (a year's steps of 190 meters)
            days = bl["day"]
            xs_b = np.datetime_as_string(np.append(days, days[-1] + 1), unit="D").tolist()
            base_of_day, thr_of_day = bl["baseline"], bl["threshold"]
            base = np.round(np.append(base_of_day, base_of_day[-1]), 4).tolist()
            thr = np.round(np.append(thr_of_day, thr_of_day[-1]), 4).tolist()
            source = _mode(bl["baseline_source"])
            src = f" ({source})" if source is not None else ""
            traces.append({"type": "scatter", "mode": "lines", "xaxis": xref, "yaxis": yref, "x": xs_b, "y": base,
                           "line": {"color": COLORS["baseline"], "width": 2, "shape": "hv"},
                           "hovertemplate": f"baseline: %{{y:.3g}} {esc(unit)}{esc(src)}<extra></extra>",
                           **legend("baseline" + src)})
            judged = base_of_day != 0
            ratios = sorted({round(float(r), 6) for r in np.unique(thr_of_day[judged] / base_of_day[judged])})
            ratio = " or ".join(_num(r) for r in ratios)   # the ratio of each day's slug definition
            traces.append({"type": "scatter", "mode": "lines", "xaxis": xref, "yaxis": yref, "x": xs_b, "y": thr,
                           "line": {"color": COLORS["threshold"], "width": 1.5, "dash": "dash", "shape": "hv"},
                           "hovertemplate": f"slug threshold: %{{y:.3g}} {esc(unit)} ({ratio} × baseline)"
                                            "<extra></extra>",
                           **legend(f"slug threshold ({ratio} × baseline)")})
            layout["annotations"].append({
                "x": xs_b[-1], "y": thr[-1], "xref": xref, "yref": yref, "showarrow": False, "xanchor": "right",
                "yanchor": "bottom", "font": {"size": 10, "color": COLORS["threshold"]},
                "bgcolor": "rgba(255,255,255,0.8)",
                "text": esc(f"slug threshold {ratio} × baseline · {short_rule(citation, 60)}")})
        sc = _of(inputs.slugs, c)
        if sc is not None:
            from_text, to_text = sc["start"].tolist(), sc["end"].tolist()
            for t0, t1 in zip(from_text, to_text):
                layout["shapes"].append(vrect(t0, t1, xref, yref, COLORS["slug_fill"]))
            unit_text = esc(unit)
            traces.append({"type": "scatter", "mode": "markers+text", "xaxis": xref, "yaxis": yref,
                           "x": from_text, "y": sc["peak_value"].tolist(),
                           "marker": {"symbol": "triangle-down", "size": 12, "color": COLORS["slug"],
                                      "line": {"color": "#7f1d1d", "width": 1}},
                           "text": sc["peak_text"].tolist(), "textposition": "top center",
                           "textfont": {"size": 10, "color": COLORS["slug"]},
                           "hovertext": [h + unit_text + t for h, t in zip(sc["head"], sc["tail"])],
                           "hovertemplate": "%{hovertext}<extra></extra>",
                           **legend("slug event (peak, × baseline)")})
        gc = _of(inputs.gaps, c)
        if gc is not None:
            for x0g, x1g in zip(np.datetime_as_string(gc["first_day"], unit="D").tolist(),
                                np.datetime_as_string(gc["last_day"] + 1, unit="D").tolist()):
                layout["shapes"].append(vrect(x0g, x1g, xref, yref, COLORS["gap_fill"]))
                layout["annotations"].append({"x": x0g, "y": 0, "xref": xref, "yref": f"{yref} domain",
                                              "text": "no baseline yet", "showarrow": False, "xanchor": "left",
                                              "yanchor": "bottom", "font": {"size": 10, "color": "#4b5563"}})
        layout[layout_key(i, "y")].update({"title": {"text": esc(f"{c} ({unit})")}, "rangemode": "tozero"})
        layout[layout_key(i, "x")].update({"type": "date"})
    layout[layout_key(n, "x")]["title"] = {"text": "local time"}
    layout["legend"] = {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0}
    layout["margin"] = {"l": 70, "r": 20, "t": 40 if n == 1 else 60, "b": 110}
    caption = (f"{' and '.join(mean_names).capitalize()}s of the readings (the finest that keeps the page light), "
               "plus every reading near each slug (red). Shaded red: "
               f"slug events, {esc(definition)} ({esc(short_rule(citation, 90))}); the triangle marks the peak "
               f"(zoom in to see the shading). Shaded grey: days without enough history for a baseline.")
    return Chart(f"flow-{uid}", {"data": traces, "layout": layout}, title="Flow meter and continuous probes",
                 caption=caption, height=panel_px * n + 130)


# ----------------------------------------------------------------------- page


def _within(days: int | None) -> str:
    """'within 90 days' (the Town's policy in effect on the as-of day), or what there is without one."""
    return f"within {days} days" if days is not None else "as flagged (no policy in effect on the as-of day)"


def _status_badge(r: pd.Series) -> str:
    days = r.get("days_left")
    if is_missing(days):
        return badge("no expiry date")
    days = int(days)
    if days < 0:
        return badge(f"expired {-days} days ago", "bad")
    if bool(r.get("permit_expiry_flag")):
        return badge(f"expires in {days} days", "warn")
    return badge(f"{days} days left", "good")


def _first_rows(frame: pd.DataFrame) -> dict[Any, pd.Series]:
    """Each user's first row of ``frame`` (by user_id)."""
    if frame.empty or "user_id" not in frame:
        return {}
    firsts = frame.drop_duplicates("user_id")
    return {u: firsts.iloc[i] for i, u in enumerate(firsts["user_id"])}


def build_sewer_page(data: SewerData) -> tuple[str, PageMeta]:
    meta = PageMeta()
    present = data.present
    users = _frame(data.users)
    results = _frame(data.results)
    limits = _frame(data.limits)
    violations = _frame(data.violations)
    statv = _frame(data.statistic_violations)
    inconc = _frame(data.inconclusive)
    flow = _frame(data.flow)
    slugs = _frame(data.slugs)
    baselines = _frame(data.baselines)
    gaps = _frame(data.gaps)
    snc = _frame(data.snc)
    summary = user_summary(data)
    charts: list[Chart] = []
    body: list[str] = []

    # KPIs
    n_users = int(summary["user_id"].nunique()) if not summary.empty else 0
    flagged = summary[summary["permit_expiry_flag"]] if not summary.empty else summary
    users_viol = int(violations["user_id"].nunique()) if not violations.empty else 0
    body.append(kpis([
        Kpi("per-sample violations", fmt_num(len(violations)), f"{users_viol} of {n_users} users",
            "bad" if len(violations) else "good", "#violations"),
        Kpi("statistic violations", fmt_num(len(statv)), "daily maximum / monthly average",
            "bad" if len(statv) else "good", "#statistic"),
        Kpi("inconclusive non-detects", fmt_num(len(inconc)), "detection value above the limit",
            "warn" if len(inconc) else "good", "#inconclusive"),
        Kpi("slug events", fmt_num(len(slugs)), f"{slugs['user_id'].nunique() if not slugs.empty else 0} users",
            "bad" if len(slugs) else "good", "#slugs"),
        Kpi("permits expiring or expired", fmt_num(len(flagged)), _within(data.permit_warn_days),
            "warn" if len(flagged) else "good", "#summary"),
    ] + ([Kpi("in significant noncompliance", fmt_num(snc["user_id"].nunique()), "users, 40 CFR 403.8(f)(2)(viii)",
              "bad" if len(snc) else "good", "#snc")] if data.snc is not None else [])))

    # summary + permits
    if summary.empty:
        sbody = no_data("industrial_users", present.get("industrial_users"), "industrial users")
    else:
        parts = []
        if not flagged.empty:
            items = []
            for _, r in flagged.sort_values("days_left").iterrows():
                days = r.get("days_left")
                when = ("expired " + fmt_date(r.get("permit_expires")) + f" ({-int(days)} days ago)"
                        if not is_missing(days) and int(days) < 0 else
                        "expires " + fmt_date(r.get("permit_expires")) +
                        (f" (in {int(days)} days)" if not is_missing(days) else ""))
                items.append(f'<li><a href="#user-{esc(slug(r["user_id"]))}">{esc(r["user_id"])}</a> '
                             f'{esc(r.get("name"))}: permit {esc(r.get("permit_no"))} {esc(when)}</li>')
            rule = f" ({esc(data.permit_warn_rule)})" if data.permit_warn_rule else ""
            parts.append(note(f"<strong>Permits expiring {_within(data.permit_warn_days)} or expired{rule}:"
                              f"</strong><ul>{''.join(items)}</ul>", "warn"))
        if data.summary is None or _frame(data.summary).empty:
            parts.append(no_data("compliance_summary", present.get("compliance_summary"),
                                 "counts per user (permit dates shown from industrial_users)"))
        ordered = summary.assign(
            _v=summary["violations"].fillna(0) + summary["statistic_violations"].fillna(0)
        ).sort_values(["permit_expiry_flag", "_v", "user_id"], ascending=[False, False, True])
        parts.append(table(ordered, [
            Col("user_id", "User", nowrap=True, html=lambda r: f'<a href="#user-{esc(slug(r["user_id"]))}">{esc(r["user_id"])}</a>'),
            Col("name", "Name"),
            Col("permit_no", "Permit", nowrap=True),
            Col("permit_expires", "Expires", nowrap=True, fmt=fmt_date),
            Col("days_left", "Permit status", html=_status_badge),
            Col("samples", "Samples", fmt=lambda v: fmt_num(v), num=True),
            Col("violations", "Violations", fmt=lambda v: fmt_num(v), num=True),
            Col("statistic_violations", "Statistic viol.", fmt=lambda v: fmt_num(v), num=True),
            Col("inconclusive", "Inconclusive", fmt=lambda v: fmt_num(v), num=True),
            Col("slugs", "Slugs", fmt=lambda v: fmt_num(v), num=True),
            Col("worst", "Worst exceedance", num=True, html=lambda r: "" if is_missing(r.get("worst")) else
                esc(f"{float(r['worst']):.2f}× {param_label(r.get('worst_parameter')) if not is_missing(r.get('worst_parameter')) else ''}")),
        ], row_class=lambda r: "row-bad" if (r.get("violations") or 0) + (r.get("statistic_violations") or 0) > 0
            else ("row-warn" if r.get("permit_expiry_flag") else "")))
        sbody = join(parts)
    body.append(section(f"Compliance summary, {data.as_of.year} to {data.as_of:%B %d}", sbody, sid="summary",
                        lead=("Counts from January 1 to the as-of month; permit status as of "
                              f"{data.as_of.isoformat()}.")))

    # heat map
    hm = heatmap_chart(data, summary) if not summary.empty or not violations.empty else None
    if hm is None:
        body.append(section("Violations by user and month",
                            no_data("discharge_violations", present.get("discharge_violations"), "violations")))
    else:
        charts.append(hm)
        extra = ""
        if (data.summary is None or _frame(data.summary).empty) and violations.empty:
            extra = no_data("discharge_violations", present.get("discharge_violations"), "violations")
        body.append(section("Violations by user and month", extra + hm.html(), sid="heatmap"))

    # findings tables
    f_parts = []
    f_parts.append('<h3 id="violations">Per-sample violations</h3>')
    if violations.empty:
        f_parts.append(no_data("discharge_violations", present.get("discharge_violations"), "violations")
                       if not present.get("discharge_violations") or results.empty else
                       note("No sample broke a limit.", "info"))
    else:
        v = violations.sort_values("collected_at", ascending=False)
        f_parts.append(table(v, [
            Col("user_id", "User", nowrap=True, html=lambda r: f'<a href="#user-{esc(slug(r["user_id"]))}">{esc(r["user_id"])}</a>'),
            Col("collected_at", "Collected", nowrap=True, fmt=fmt_datetime),
            Col("sample_id", "Sample", nowrap=True),
            Col("parameter", "Parameter", fmt=param_label),
            Col("value", "Result", num=True, html=lambda r: esc(f"{_num(r['value'])} {r.get('unit') or ''}")),
            Col("limit_value", "Limit", num=True,
                html=lambda r: esc(f"{r.get('limit_type')} {_num(r['limit_value'])} {r.get('unit') or ''}")),
            Col("exceedance_ratio", "× limit", num=True, fmt=lambda v: f"{float(v):.2f}×"),
            Col("rule", "Rule (section)"),
        ]))
    f_parts.append('<h3 id="statistic">Statistic violations (daily maximum, monthly average)</h3>')
    if statv.empty:
        f_parts.append(no_data("statistic_violations", present.get("statistic_violations"))
                       if not present.get("statistic_violations") else note("None.", "info"))
    else:
        f_parts.append(table(statv.sort_values("period_start", ascending=False), [
            Col("user_id", "User", nowrap=True), Col("parameter", "Parameter", fmt=param_label), Col("statistic", "Statistic"),
            Col("period_start", "From", nowrap=True, fmt=fmt_date), Col("period_end", "To", nowrap=True, fmt=fmt_date),
            Col("value", "Value", num=True, html=lambda r: esc(f"{_num(r['value'])} {r.get('unit') or ''}")),
            Col("limit_value", "Limit", num=True, fmt=_num), Col("samples", "Samples", num=True),
            Col("rule", "Rule (section)")]))
    f_parts.append('<h3 id="inconclusive">Inconclusive non-detects</h3>')
    if inconc.empty:
        f_parts.append(no_data("inconclusive_results", present.get("inconclusive_results"))
                       if not present.get("inconclusive_results") else note("None.", "info"))
    else:
        f_parts.append(table(inconc.sort_values("collected_at", ascending=False), [
            Col("user_id", "User", nowrap=True), Col("collected_at", "Collected", nowrap=True, fmt=fmt_datetime), Col("sample_id", "Sample", nowrap=True),
            Col("parameter", "Parameter", fmt=param_label),
            Col("detection_value", "Reported", num=True,
                html=lambda r: esc(f"{r.get('qualifier') or '<'}{_num(r['detection_value'])} {r.get('unit') or ''}")),
            Col("limit_value", "Limit", num=True, fmt=_num), Col("reason", "Why"), Col("rule", "Rule")]))
    f_parts.append('<h3 id="slugs">Slug events</h3>')
    if slugs.empty:
        f_parts.append(no_data("slug_events", present.get("slug_events"))
                       if not present.get("slug_events") else note("No slug discharge detected.", "info"))
    else:
        f_parts.append(table(slugs.sort_values("start_at", ascending=False), [
            Col("user_id", "User", nowrap=True, html=lambda r: f'<a href="#user-{esc(slug(r["user_id"]))}">{esc(r["user_id"])}</a>'),
            Col("constituent", "Constituent"), Col("start_at", "Start", nowrap=True, fmt=fmt_datetime),
            Col("end_at", "End", nowrap=True, fmt=fmt_datetime), Col("duration_min", "Minutes", num=True),
            Col("peak_value", "Peak", num=True, html=lambda r: esc(f"{_num(r['peak_value'])} {r.get('unit') or ''}")),
            Col("baseline", "Baseline", num=True, fmt=_num),
            Col("peak_ratio", "× baseline", num=True, fmt=lambda v: f"{float(v):.1f}×"),
            Col("rule", "Rule")]))
    if data.snc is not None:
        f_parts.append('<h3 id="snc">Significant noncompliance</h3>')
        if snc.empty:
            f_parts.append(note("No user meets a criterion of significant noncompliance.", "info"))
        else:
            f_parts.append(table(snc.sort_values(["period_start", "user_id"], ascending=[False, True]), [
                Col("user_id", "User", nowrap=True,
                    html=lambda r: f'<a href="#user-{esc(slug(r["user_id"]))}">{esc(r["user_id"])}</a>'),
                Col("period_start", "From", fmt=fmt_date, nowrap=True),
                Col("period_end", "To", fmt=fmt_date, nowrap=True),
                Col("criterion", "Criterion", html=lambda r: badge(str(r.get("criterion") or "")
                                                                   .replace("_", " "), "bad")),
                Col("parameter", "Parameter", fmt=param_label),
                Col("count", "Count", num=True), Col("measurements", "Of", num=True),
                Col("basis", "Measured as", fmt=lambda v: SNC_BASIS_LABELS.get(str(v), str(v))),
                Col("pct", "%", num=True, fmt=lambda v: f"{float(v):.0f}%"), Col("rule", "Rule (section)")]))
    f_parts += permit_parts(data)
    if not gaps.empty:
        f_parts.append('<h3 id="baseline-gaps">Readings not judged for slugs (no baseline)</h3>')
        f_parts.append(table(gaps, [
            Col("user_id", "User", nowrap=True), Col("constituent", "Constituent"), Col("first_day", "From", nowrap=True, fmt=fmt_date),
            Col("last_day", "To", nowrap=True, fmt=fmt_date), Col("days_lacking", "Days", num=True),
            Col("readings_not_judged", "Readings not judged", num=True, fmt=fmt_num), Col("reason", "Why")]))
    body.append(section("Findings", join(f_parts), sid="findings",
                        lead="Which user broke which limit, when, by how much, and under which section."))

    # notices of violation (one per user and month) and the Town's follow-up of each violation
    body.append(section("Notices of violation and follow-up", join([
        '<h3 id="notices">Notices, one per user and month</h3>', notices_table(data.notices, "sewer", "User"),
        '<h3 id="follow-up">Follow-up of each violation</h3>', sewer_follow_up(data.follow_up)]), sid="notices-section",
        lead="Woodbury Code ch. 253 Part 2, enforcement: a notice by certified mail sets a period to correct; "
             "§ 253-55 A penalty days count from the day after it. The Town's record, not sent to the user."))

    # the testing required of each user, period by period (dashboards/testing.py)
    body.append(required_testing_section(data.required_testing, data.as_of, present.get("required_testing")))

    # per user
    user_ids = sorted(set(summary["user_id"]) if not summary.empty else set()
                      | (set(results["user_id"]) if not results.empty else set())
                      | (set(flow["user_id"]) if not flow.empty else set()))
    names = dict(zip(summary.get("user_id", []), summary.get("name", []))) if not summary.empty else {}
    viol_by_user = violations.groupby("user_id").size().to_dict() if not violations.empty else {}
    toc = "".join(
        f'<a class="{"bad" if viol_by_user.get(u) else ""}" href="#user-{esc(slug(u))}">{esc(u)}'
        f'{(" · " + str(viol_by_user[u])) if viol_by_user.get(u) else ""}</a>' for u in user_ids)
    body.append(section("Industrial users", f'<div class="toc">{toc}</div>' if toc else
                        no_data("industrial_users", present.get("industrial_users"), "industrial users"),
                        sid="users", lead="Each user's control charts and flow trace. Red: users with violations "
                                          "(count after the id)."))
    if not results.empty:
        results = results.assign(t=local_naive(results["collected_at"]))
    if not limits.empty:
        limits = limits.assign(t=local_naive(limits["collected_at"]))
    res_by_user = dict(tuple(results.groupby("user_id"))) if not results.empty else {}
    lim_by_user = dict(tuple(limits.groupby("user_id"))) if not limits.empty else {}
    # every meter's readings, slugs, baselines and gaps as arrays, split by user once (a boolean filter
    # of the whole frame per user cost 3 s for 190 meters' 572,000 points, a frame per user 0.7 s)
    flow_of = flow_inputs(flow, slugs, baselines, gaps)
    words = slug_words(data.slug_rules)
    # each user's first row of the summary and of the users, and who is in SNC, looked up once
    summary_of = _first_rows(summary)
    user_of = _first_rows(users)
    in_snc = set(snc["user_id"]) if not snc.empty else set()
    for u in user_ids:
        ures = res_by_user.get(u, results.iloc[0:0])
        ulim = lim_by_user.get(u, limits.iloc[0:0])
        srow = summary_of.get(u)
        urow = user_of.get(u)
        parts = []
        facts = []
        if urow is not None:
            for label, key in (("address", "address"), ("district", "district"), ("permit", "permit_no")):
                if not is_missing(urow.get(key)):
                    facts.append(f"{label} {esc(urow.get(key))}")
            if not is_missing(urow.get("permit_expires")):
                facts.append(f"permit expires {esc(fmt_date(urow.get('permit_expires')))}")
            if not is_missing(urow.get("normal_flow_gpd")):
                facts.append(f"normal average flow {fmt_num(urow.get('normal_flow_gpd'))} gpd")
        head_badges = ""
        if srow is not None:
            head_badges = _status_badge(srow)
        nv = viol_by_user.get(u, 0)
        if u in in_snc:
            head_badges += " " + badge("significant noncompliance", "bad")
        head_badges += " " + (badge(f"{nv} violation{'s' if nv != 1 else ''}", "bad") if nv else
                              badge("no violations", "good"))
        parts.append(f'<div class="entity-head"><h2>{esc(u)} · {esc(names.get(u) or "")}</h2>{head_badges}</div>'
                     f'<div class="facts">{" · ".join(facts)}</div>')
        if ures.empty:
            parts.append(no_data("lab_results", present.get("lab_results"), "lab results for this user")
                         if not present.get("lab_results") else note("No lab results for this user.", "empty"))
        else:
            limited = set(ulim["parameter"]) if not ulim.empty else set()
            unlimited = sorted(set(ures["parameter"]) - limited, key=_param_key)
            cc = control_chart(u, ures, ulim) if not ulim.empty else None
            if cc is None:
                parts.append(no_data("discharge_evaluations", present.get("discharge_evaluations"),
                                     "limits applied to this user's results"))
            else:
                charts.append(cc)
                parts.append(cc.html())
            if unlimited:
                parts.append(note("Also sampled, with no limit defined: " + ", ".join(
                    esc(param_label(p)) for p in unlimited) + ".", "info"))
        uflow = flow_of.get(u)
        if uflow is None:
            parts.append(note("No flow or probe readings for this user.", "empty") if present.get("flow")
                         else no_data("flow", present.get("flow"), "flow readings"))
        else:
            fc = draw_flow_chart(u, uflow, words)
            if fc is not None:
                charts.append(fc)
                parts.append(fc.html())
        body.append(f'<section id="user-{esc(slug(u))}">{join(parts)}</section>')

    meta.charts = len(charts)
    meta.counts = {"users": len(user_ids), "violations": len(violations), "slugs": len(slugs)}
    dates = []
    if not results.empty:
        t = local_naive(results["collected_at"])
        dates = [t.min(), t.max()]
    rng = f" · samples {dates[0]:%Y-%m-%d} to {dates[1]:%Y-%m-%d}" if dates else ""
    html_text = page(file="sewer.html", title="Sewer administrator: industrial users",
                     subtitle=esc(f"Woodbury ch. 253 Part 2 discharge limits and slugs · as of {data.as_of.isoformat()}{rng}"),
                     body=join(body), as_of=data.as_of, town=data.town,
                     generated_at=data.generated_at, has_charts=bool(charts))
    return html_text, meta


# ----------------------------------------------------------------------- shaping (pure, used by the asset)

BUCKET_HOURS = (1, 2, 3, 4, 6, 8, 12, 24, 48, 168)


def choose_bucket_hours(span_hours: float, max_points: int = 1500) -> int:
    """The finest of 1, 2, 3, 4, 6, 8, 12, 24, 48 or 168 hours giving at most ``max_points`` means.

    A month of readings gets hourly means; a year gets 6-hour means (1,460 points)."""
    for hours in BUCKET_HOURS:
        if span_hours / hours <= max_points:
            return hours
    return BUCKET_HOURS[-1]


def label_results(lab: pd.DataFrame, evaluations: pd.DataFrame | None = None,
                  violations: pd.DataFrame | None = None, inconclusive: pd.DataFrame | None = None) -> pd.DataFrame:
    """Each lab result with its outcome: from the per-sample evaluations when there are
    any, else from the violation and inconclusive tables (other results are then
    left unjudged, outcome None)."""
    out = lab.copy()
    key = ["user_id", "sample_id", "parameter"]
    for col in ("outcome", "limit_value", "limit_type", "exceedance_ratio", "rule"):
        out[col] = None
    if out.empty:
        return out
    if evaluations is not None and not evaluations.empty:
        ev = evaluations.copy()
        rank = ev["outcome"].map({"violation": 2, "inconclusive": 1}).fillna(0)
        ev["_rank"] = rank
        ev["_ratio"] = ev["exceedance_ratio"].fillna(-1)
        ev = ev.sort_values(key + ["_rank", "_ratio"]).groupby(key, as_index=False).last()
        viol = ev["outcome"] == "violation"
        for col in ("limit_value", "limit_type", "exceedance_ratio", "rule"):
            ev[col] = ev[col].where(viol, None)
        merged = out.drop(columns=["outcome", "limit_value", "limit_type", "exceedance_ratio", "rule"]).merge(
            ev[key + ["outcome", "limit_value", "limit_type", "exceedance_ratio", "rule"]], on=key, how="left")
        return merged
    if violations is not None and not violations.empty:
        v = (violations.sort_values("exceedance_ratio" if "exceedance_ratio" in violations else "value")
             .groupby(key, as_index=False).last())
        out = out.drop(columns=["limit_value", "limit_type", "exceedance_ratio", "rule"]).merge(
            v[key + [c for c in ("limit_value", "limit_type", "exceedance_ratio", "rule") if c in v]],
            on=key, how="left")
        out.loc[out["limit_value"].notna(), "outcome"] = "violation"
    if inconclusive is not None and not inconclusive.empty:
        ik = set(map(tuple, inconclusive[key].astype(str).to_numpy()))
        mask = [tuple(r) in ik for r in out[key].astype(str).to_numpy()]
        out.loc[mask, "outcome"] = out.loc[mask, "outcome"].fillna("inconclusive")
    return out


# --------------------------------------------------------------------------- discharges without a permit

SNC_BASIS_LABELS = {"sample": "single samples", "daily_max": "daily maximums", "monthly_avg": "monthly averages"}
PERMIT_FINDING_LABELS = {"permit_expired": "after the permit expired",
                         "permit_not_yet_effective": "before the permit took effect"}


def permit_spells(days: pd.DataFrame) -> pd.DataFrame:
    """Consecutive days of one user and finding joined into one line: first and last day, days, samples,
    flow readings, the permit's dates and the rule."""
    if days.empty:
        return pd.DataFrame(columns=["user_id", "name", "finding", "first_day", "last_day", "days", "samples",
                                     "flow_readings", "permit_no", "permit_effective", "permit_expires", "rule"])
    d = days.sort_values(["user_id", "finding", "day"]).copy()
    day = pd.to_datetime(d["day"])
    new = (d["user_id"] != d["user_id"].shift()) | (d["finding"] != d["finding"].shift()) | (
        day.diff() != pd.Timedelta(days=1))
    d["_spell"] = new.cumsum()
    agg = d.groupby("_spell").agg(user_id=("user_id", "first"), name=("name", "first"), finding=("finding", "first"),
                                  first_day=("day", "min"), last_day=("day", "max"), days=("day", "count"),
                                  samples=("samples", "sum"), flow_readings=("flow_readings", "sum"),
                                  permit_no=("permit_no", "first"), permit_effective=("permit_effective", "first"),
                                  permit_expires=("permit_expires", "first"), rule=("rule", "first"))
    return agg.reset_index(drop=True)


def permit_parts(data: SewerData) -> list[str]:
    parts: list[str] = []
    if data.without_permit is None and data.permit_dates_missing is None:
        return parts
    parts.append('<h3 id="without-permit">Discharging without a permit</h3>')
    spells = permit_spells(_frame(data.without_permit))
    if spells.empty:
        parts.append(no_data("discharges_without_permit", data.present.get("discharges_without_permit"),
                             "samples or flow readings on days a permit was not in effect")
                     if not data.present.get("discharges_without_permit") else
                     note("No sample or flow reading above 0 on a day its user's permit was not in effect.", "info"))
    else:
        parts.append(table(spells, [
            Col("user_id", "User", nowrap=True, html=lambda r: f'<a href="#user-{esc(slug(r["user_id"]))}">'
                f'{esc(r["user_id"])}</a>' + (f"<br><small>{esc(r['name'])}</small>" if not is_missing(r["name"]) else "")),
            Col("finding", "When", fmt=lambda v: PERMIT_FINDING_LABELS.get(v, v)),
            Col("first_day", "From", fmt=fmt_date, nowrap=True), Col("last_day", "To", fmt=fmt_date, nowrap=True),
            Col("days", "Days", num=True, fmt=fmt_num), Col("samples", "Samples", num=True, fmt=fmt_num),
            Col("flow_readings", "Flow readings above 0", num=True, fmt=fmt_num,
                title="readings of flow above 0 (a probe's pH or temperature readings, and zero flow, are not a "
                      "discharge)"),
            Col("permit_no", "Permit", html=lambda r: esc(f"{r['permit_no'] or ''} ({fmt_date(r['permit_effective']) or '…'}"
                                                        f" to {fmt_date(r['permit_expires']) or '…'})")),
            Col("rule", "Rule (section)")], row_class=lambda r: "row-bad"))
    missing = _frame(data.permit_dates_missing)
    if not missing.empty:
        parts.append("<h4>Permit term not on file (not judged)</h4>" + table(missing, [
            Col("user_id", "User", nowrap=True), Col("name", "Name"),
            Col("first_day", "Samples or readings from", fmt=fmt_date, nowrap=True),
            Col("last_day", "To", fmt=fmt_date, nowrap=True), Col("samples", "Samples", num=True, fmt=fmt_num),
            Col("flow_readings", "Flow readings above 0", num=True, fmt=fmt_num), Col("reason", "What to do"),
            Col("rule", "Reading")]))
    return parts
