"""One site's chart: its inspections against daily rainfall, the storm threshold and the findings."""

from __future__ import annotations

from typing import Any

import pandas as pd

from dashboards.figs import grid, layout_key, typed
from dashboards.html import (
    COLORS,
    Chart,
    esc,
    fmt_date,
    fmt_num,
    is_missing,
    short_rule,
)
from dashboards.stormwater.data import KIND_SYMBOL, StormwaterData
from dashboards.stormwater.sites import _d, _is_storm, _storm_rule, _threshold_words

# The rows of a site chart's lower panel, top to bottom.
TIMELINE_ROWS = ["inspections made", "weekly: late / overdue", "storm: late / overdue"]


def _day(value: pd.Timestamp) -> str:
    return value.strftime("%Y-%m-%d")


def _chart_window(
    site: pd.Series, insp: pd.DataFrame, as_of: pd.Timestamp
) -> tuple[pd.Timestamp, pd.Timestamp]:
    """The days a site's chart spans: a week before construction started (or its first date) to a week
    after the last of its final stabilization, the as-of day and its inspections."""
    start, stab = _d(site.get("construction_start")), _d(site.get("final_stabilization"))
    dates = [d for d in [start, stab, as_of] if d is not None]
    if not insp.empty:
        dates += [pd.Timestamp(insp["inspected_on"].min()), pd.Timestamp(insp["inspected_on"].max())]
    return (min(dates) if start is None else start) - pd.Timedelta(days=7), max(dates) + pd.Timedelta(days=7)


def _rain_bars(
    site: pd.Series, r: pd.DataFrame, rules: Any, storm_rule: Any, refs: tuple[str, str]
) -> list[dict[str, Any]]:
    """Daily rain at the site's gauge, the storm days (as the law judges them by the site's ``rules``) in
    their own color."""
    is_storm = (
        pd.Series(
            [_is_storm(rules, float(p), d.date()) for p, d in zip(r["precip_in"], r["date"])],
            index=r.index,
            dtype=bool,
        )
        if not r.empty
        else pd.Series(dtype=bool)
    )
    storm = r[is_storm] if not r.empty else r
    light = r[~is_storm] if not r.empty else r
    gauge = site.get("rain_gauge_id")
    storm_name = (
        f"storm day: inspection due within {storm_rule.window_days * 24} h"
        if storm_rule is not None
        else "storm day"
    )
    traces = []
    for frame, name, color in ((light, "daily rain", COLORS["rain"]), (storm, storm_name, COLORS["storm"])):
        if frame.empty:
            continue
        traces.append(
            {
                "type": "bar",
                "xaxis": refs[0],
                "yaxis": refs[1],
                "name": name,
                "x": [d.strftime("%Y-%m-%d") for d in frame["date"]],
                "y": typed(frame["precip_in"].astype(float), "f4"),
                "marker": {"color": color},
                "hovertemplate": f"%{{x|%Y-%m-%d}}: %{{y:.2f}} in at gauge {esc(gauge)}<extra></extra>",
            }
        )
    return traces


def _rain_marks(
    layout: dict[str, Any], site: pd.Series, r: pd.DataFrame, storm_rule: Any, refs: tuple[str, str]
) -> None:
    """The storm threshold in effect on the as-of day, with its citation; a note when the gauge has no
    rain."""
    xr1, yr1 = refs
    if storm_rule is not None:
        threshold = float(storm_rule.threshold_in)
        layout["shapes"].append(
            {
                "type": "line",
                "xref": f"{xr1} domain",
                "yref": yr1,
                "x0": 0,
                "x1": 1,
                "y0": threshold,
                "y1": threshold,
                "line": {"color": COLORS["limit"], "dash": "dash", "width": 1.5},
            }
        )
        layout["annotations"].append(
            {
                "x": 1,
                "xref": f"{xr1} domain",
                "y": threshold,
                "yref": yr1,
                "xanchor": "right",
                "yanchor": "bottom",
                "showarrow": False,
                "font": {"size": 10, "color": COLORS["limit"]},
                "bgcolor": "rgba(255,255,255,0.8)",
                "text": esc(
                    f"{_threshold_words(storm_rule)} storm threshold · {short_rule(storm_rule.citation, 70)}"
                ),
            }
        )
    if r.empty:
        gauge = site.get("rain_gauge_id")
        layout["annotations"].append(
            {
                "x": 0.5,
                "y": 0.5,
                "xref": f"{xr1} domain",
                "yref": f"{yr1} domain",
                "showarrow": False,
                "font": {"color": "#6b7280"},
                "text": esc(
                    f"no rainfall at gauge {gauge if not is_missing(gauge) else '?'} for these dates"
                ),
            }
        )


def _period_marks(
    layout: dict[str, Any], site: pd.Series, as_of: pd.Timestamp, refs: list[tuple[str, str]]
) -> None:
    """Across both panels: the site's active period shaded, and the as-of day as a dotted line."""
    start, stab = _d(site.get("construction_start")), _d(site.get("final_stabilization"))
    if start is not None:
        _active_marks(layout, start, stab, as_of, refs)
    _as_of_marks(layout, as_of, refs)


def _active_marks(
    layout: dict[str, Any],
    start: pd.Timestamp,
    stab: pd.Timestamp | None,
    as_of: pd.Timestamp,
    refs: list[tuple[str, str]],
) -> None:
    """The site's active period (construction start to final stabilization or the as-of day) shaded on both
    panels, and labelled above the first."""
    (xr1, yr1), (_, yr2) = refs
    end_active = min(stab, as_of) if stab is not None else as_of
    for yr in (yr1, yr2):
        layout["shapes"].append(
            {
                "type": "rect",
                "xref": xr1,
                "yref": f"{yr} domain",
                "x0": _day(start),
                "x1": _day(end_active),
                "y0": 0,
                "y1": 1,
                "fillcolor": COLORS["active_fill"],
                "line": {"width": 0},
                "layer": "below",
            }
        )
    layout["annotations"].append(
        {
            "x": _day(start),
            "y": 1,
            "xref": xr1,
            "yref": f"{yr1} domain",
            "xanchor": "left",
            "yanchor": "bottom",
            "showarrow": False,
            "font": {"size": 10, "color": "#047857"},
            "text": "construction start"
            + (f" → final stabilization {stab:%Y-%m-%d}" if stab is not None else " → still active"),
        }
    )


def _as_of_marks(layout: dict[str, Any], as_of: pd.Timestamp, refs: list[tuple[str, str]]) -> None:
    """The as-of day as a dotted line across both panels, labelled above the second."""
    (xr1, yr1), (xr2, yr2) = refs
    for yr in (yr1, yr2):
        layout["shapes"].append(
            {
                "type": "line",
                "xref": xr1,
                "yref": f"{yr} domain",
                "x0": _day(as_of),
                "x1": _day(as_of),
                "y0": 0,
                "y1": 1,
                "line": {"color": "#374151", "dash": "dot", "width": 1},
            }
        )
    layout["annotations"].append(
        {
            "x": _day(as_of),
            "y": 1,
            "xref": xr2,
            "yref": f"{yr2} domain",
            "xanchor": "right",
            "yanchor": "bottom",
            "showarrow": False,
            "font": {"size": 10, "color": "#374151"},
            "text": f"as of {as_of.date().isoformat()}",
        }
    )


def _inspection_traces(insp: pd.DataFrame, refs: tuple[str, str]) -> list[dict[str, Any]]:
    """The inspections made, a marker a kind, on the first row of the lower panel."""
    traces = []
    for kind, frame in insp.groupby(insp["kind"].fillna("routine")):
        hover = []
        for _, i in frame.iterrows():
            notes = str(i.get("notes") or "")
            notes = notes if len(notes) <= 160 else notes[:159] + "…"
            sed = i.get("sediment_capacity_lost_pct")
            hover.append(
                f"{esc(kind)} inspection by {esc(i.get('inspector'))}"
                + (f"<br>sediment capacity lost {fmt_num(sed)}%" if not is_missing(sed) else "")
                + (f"<br>{esc(notes)}" if notes else "")
            )
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "xaxis": refs[0],
                "yaxis": refs[1],
                "name": esc(f"{kind} inspection"),
                "x": [pd.Timestamp(d).strftime("%Y-%m-%d") for d in frame["inspected_on"]],
                "y": [TIMELINE_ROWS[0]] * len(frame),
                "marker": {
                    "symbol": KIND_SYMBOL.get(str(kind), "circle"),
                    "size": 10,
                    "color": COLORS["inspection"],
                    "line": {"color": "#064e3b", "width": 1},
                },
                "hovertext": hover,
                "hovertemplate": "%{x|%Y-%m-%d}<br>%{hovertext}<extra></extra>",
            }
        )
    return traces


def _finding_hover(status: str, g: pd.Series) -> str:
    days = g.get("days_late")
    return (
        f"<b>{esc(status)}</b> {esc(g['requirement'])} inspection"
        f"<br>triggered {fmt_date(g['trigger_date'])}, due by {fmt_date(g['due_by'])}"
        + (
            f"<br>made {fmt_date(g['satisfied_on'])}"
            if not is_missing(g.get("satisfied_on"))
            else "<br>not made"
        )
        + (f" ({int(days)} days late)" if not is_missing(days) else "")
        + f"<br>{esc(short_rule(g.get('rule'), 90))}"
    )


def _finding_traces(
    findings: pd.DataFrame, as_of: pd.Timestamp, refs: tuple[str, str]
) -> list[dict[str, Any]]:
    """Each late or overdue inspection: a bar from its due day to the inspection (late) or to the as-of day
    (overdue), on the row of its requirement, a marker at the due day."""
    traces = []
    for status, color in (("late", COLORS["late"]), ("overdue", COLORS["overdue"])):
        f = findings[findings["status"] == status]
        if f.empty:
            continue
        xs: list[Any] = []
        ys: list[Any] = []
        mx, my, hover = [], [], []
        for _, g in f.iterrows():
            row = TIMELINE_ROWS[1] if g["requirement"] == "weekly" else TIMELINE_ROWS[2]
            due = pd.Timestamp(g["due_by"])
            until = pd.Timestamp(g["satisfied_on"]) if not is_missing(g.get("satisfied_on")) else as_of
            xs += [_day(due), _day(until), None]
            ys += [row, row, None]
            mx.append(_day(due))
            my.append(row)
            hover.append(_finding_hover(status, g))
        traces.append(
            {
                "type": "scatter",
                "mode": "lines",
                "xaxis": refs[0],
                "yaxis": refs[1],
                "x": xs,
                "y": ys,
                "line": {"color": color, "width": 6},
                "hoverinfo": "skip",
                "showlegend": False,
                "legendgroup": status,
            }
        )
        traces.append(
            {
                "type": "scatter",
                "mode": "markers",
                "xaxis": refs[0],
                "yaxis": refs[1],
                "x": mx,
                "y": my,
                "name": f"{status} (bar: due date → {'inspection' if status == 'late' else 'today'})",
                "legendgroup": status,
                "marker": {
                    "symbol": "x-thin-open" if status == "overdue" else "circle",
                    "size": 13 if status == "overdue" else 9,
                    "color": color,
                    "line": {"width": 3 if status == "overdue" else 1, "color": color},
                },
                "hovertext": hover,
                "hovertemplate": "%{hovertext}<extra></extra>",
            }
        )
    return traces


def _site_axes(
    layout: dict[str, Any], window: tuple[pd.Timestamp, pd.Timestamp], r: pd.DataFrame, storm_rule: Any
) -> None:
    """One date range for both panels; rain up to half again the threshold (or the wettest day); the
    timeline's three rows; the legend below."""
    xr = [_day(window[0]), _day(window[1])]
    layout[layout_key(1, "x")].update({"type": "date", "range": xr, "showticklabels": False})
    layout[layout_key(2, "x")].update({"type": "date", "range": xr, "title": {"text": "date (local)"}})
    ymax = (
        max(
            float(storm_rule.threshold_in) * 1.5 if storm_rule is not None else 0,
            float(r["precip_in"].max()) * 1.1 if not r.empty else 0,
        )
        or 1.0
    )
    layout[layout_key(1, "y")].update({"title": {"text": "rain (in/day)"}, "range": [0, ymax]})
    layout[layout_key(2, "y")].update(
        {
            "type": "category",
            "categoryorder": "array",
            "categoryarray": TIMELINE_ROWS[::-1],
            "range": [-0.6, 2.6],
            "showgrid": False,
        }
    )
    layout["bargap"] = 0.15
    layout["legend"] = {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0}
    layout["margin"] = {"l": 150, "r": 20, "t": 30, "b": 95}


def site_chart(
    site: pd.Series, data: StormwaterData, rain: pd.DataFrame, insp: pd.DataFrame, findings: pd.DataFrame
) -> Chart:
    """Daily rainfall at the site's gauge with the storm threshold, above a strip of inspections and
    findings."""
    as_of = pd.Timestamp(data.as_of)
    rules, storm_rule = _storm_rule(data, site.get("jurisdiction"), data.as_of)
    window = _chart_window(site, insp, as_of)
    layout, refs = grid(2, 1, vspace=0.1, row_heights=[0.6, 0.4])
    r = rain.copy()
    if not r.empty:
        r["date"] = pd.to_datetime(r["date"])
        r = r[(r["date"] >= window[0]) & (r["date"] <= window[1])]
    traces = _rain_bars(site, r, rules, storm_rule, refs[0])
    _rain_marks(layout, site, r, storm_rule, refs[0])
    _period_marks(layout, site, as_of, refs)
    if not insp.empty:
        traces += _inspection_traces(insp, refs[1])
    if not findings.empty:
        traces += _finding_traces(findings, as_of, refs[1])
    _site_axes(layout, window, r, storm_rule)
    return Chart(
        f"site-{site['site_id']}",
        {"data": traces, "layout": layout},
        height=420,
        print_height=235,
        print_layout={"margin.b": 70},
    )
