"""A user's flow chart: the readings (or their means), the baselines, the slugs and the gaps, one panel a
constituent."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from dashboards.figs import grid, layout_key, typed, vrect
from dashboards.html import (
    COLORS,
    Chart,
    esc,
    is_missing,
    short_rule,
    unit_text,
)
from dashboards.sewer_control import short_number
from dashboards.sewer_flow.inputs import (
    FLOW_PANEL_PX,
    PRINT_FLOW_PX,
    FlowInputs,
    _by_time,
    _mode,
    _of,
    _regular_series,
    resolution_words,
)


@dataclass
class _FlowFigure:
    """A flow chart as it is drawn, panel by panel: the layout, the traces so far and the legend names
    shown (each name once: its first trace carries the entry, the later ones join its group)."""

    layout: dict[str, Any]
    traces: list[dict[str, Any]] = field(default_factory=list)
    shown: set[str] = field(default_factory=set)

    def add(self, trace: dict[str, Any], name: str) -> None:
        first = name not in self.shown
        self.shown.add(name)
        self.traces.append({**trace, "name": name, "legendgroup": name, "showlegend": first})


def _mean_trace(
    fig: _FlowFigure,
    times: np.ndarray,
    values: np.ndarray,
    hours: int,
    name: str,
    unit: str,
    xref: str,
    yref: str,
) -> None:
    """A series' means, one per bucket of ``hours``, as a regular series (x0 + dx) with gaps."""
    x0, dx, ys = _regular_series(times, values, hours)
    fig.add(
        {
            "type": "scatter",
            "mode": "lines",
            "xaxis": xref,
            "yaxis": yref,
            "x0": x0,
            "dx": dx,
            "y": typed(ys, "f4"),
            "line": {"color": COLORS["flow"], "width": 1.2},
            "hovertemplate": f"%{{x|%Y-%m-%d %H:%M}}<br>{name}: %{{y:.3g}} {esc(unit)}<extra></extra>",
        },
        name,
    )


def _readings_trace(
    fig: _FlowFigure, times: np.ndarray, values: np.ndarray, unit: str, xref: str, yref: str
) -> None:
    """Every reading near a slug, each slug's window apart from the next by a gap."""
    gaps_t = np.diff(times)
    # the median step between readings (pandas' median of the steps, in ns)
    step = (
        pd.Timedelta(float(np.median(gaps_t.astype(np.int64).astype(np.float64))))
        if len(gaps_t)
        else pd.Timedelta(minutes=15)
    )
    wide = max(step * 3, pd.Timedelta(minutes=1)).to_timedelta64()
    brk = np.concatenate([[False], gaps_t > wide])  # a new slug's window
    # a gap before each new window: a point without a value at the last one's time. Times and
    # values as typed arrays (the times the local minutes, in ms as a date axis reads them):
    # 290,000 readings near a year's slugs as text took half a second and 8 MB of the page
    at = np.flatnonzero(brk)
    minute_ms = times.astype("datetime64[m]").astype(np.int64).astype(np.float64) * 60_000.0
    xs = np.insert(minute_ms, at, minute_ms[at - 1])
    ys = np.insert(np.round(values, 4), at, np.nan)
    fig.add(
        {
            "type": "scatter",
            "mode": "lines+markers",
            "xaxis": xref,
            "yaxis": yref,
            "x": typed(xs, "f8"),
            "y": typed(ys, "f8"),
            "line": {"color": COLORS["slug"], "width": 1},
            "marker": {"size": 3, "color": COLORS["slug"]},
            "hovertemplate": f"%{{x|%Y-%m-%d %H:%M}}<br>reading: %{{y:.3g}} {esc(unit)}<extra></extra>",
        },
        "every reading near a slug",
    )


def _baseline_traces(
    fig: _FlowFigure, bl: dict[str, np.ndarray], citation: str, unit: str, xref: str, yref: str
) -> None:
    """The baseline and the slug threshold, each a step a day, the threshold labelled with its ratio and
    rule."""
    # each day's step, and one more day to close the last: as arrays (a year's steps of 190 meters)
    days = bl["day"]
    xs = np.datetime_as_string(np.append(days, days[-1] + 1), unit="D").tolist()
    base_of_day, thr_of_day = bl["baseline"], bl["threshold"]
    base = np.round(np.append(base_of_day, base_of_day[-1]), 4).tolist()
    thr = np.round(np.append(thr_of_day, thr_of_day[-1]), 4).tolist()
    source = _mode(bl["baseline_source"])
    src = f" ({source})" if source is not None else ""
    fig.add(
        {
            "type": "scatter",
            "mode": "lines",
            "xaxis": xref,
            "yaxis": yref,
            "x": xs,
            "y": base,
            "line": {"color": COLORS["baseline"], "width": 2, "shape": "hv"},
            "hovertemplate": f"baseline: %{{y:.3g}} {esc(unit)}{esc(src)}<extra></extra>",
        },
        "baseline" + src,
    )
    judged = base_of_day != 0
    ratios = sorted({round(float(r), 6) for r in np.unique(thr_of_day[judged] / base_of_day[judged])})
    ratio = " or ".join(short_number(r) for r in ratios)  # the ratio of each day's slug definition
    fig.add(
        {
            "type": "scatter",
            "mode": "lines",
            "xaxis": xref,
            "yaxis": yref,
            "x": xs,
            "y": thr,
            "line": {"color": COLORS["threshold"], "width": 1.5, "dash": "dash", "shape": "hv"},
            "hovertemplate": f"slug threshold: %{{y:.3g}} {esc(unit)} ({ratio} × baseline)<extra></extra>",
        },
        f"slug threshold ({ratio} × baseline)",
    )
    fig.layout["annotations"].append(
        {
            "x": xs[-1],
            "y": thr[-1],
            "xref": xref,
            "yref": yref,
            "showarrow": False,
            "xanchor": "right",
            "yanchor": "bottom",
            "font": {"size": 10, "color": COLORS["threshold"]},
            "bgcolor": "rgba(255,255,255,0.8)",
            "text": esc(f"slug threshold {ratio} × baseline · {short_rule(citation, 60)}"),
        }
    )


def _slug_marks(fig: _FlowFigure, sc: dict[str, np.ndarray], unit: str, xref: str, yref: str) -> None:
    """Each slug shaded from its start to its end, its peak a triangle labelled with its ratio."""
    from_text, to_text = sc["start"].tolist(), sc["end"].tolist()
    for t0, t1 in zip(from_text, to_text):
        fig.layout["shapes"].append(vrect(t0, t1, xref, yref, COLORS["slug_fill"]))
    unit_html = esc(unit)
    fig.add(
        {
            "type": "scatter",
            "mode": "markers+text",
            "xaxis": xref,
            "yaxis": yref,
            "x": from_text,
            "y": sc["peak_value"].tolist(),
            "marker": {
                "symbol": "triangle-down",
                "size": 12,
                "color": COLORS["slug"],
                "line": {"color": "#7f1d1d", "width": 1},
            },
            "text": sc["peak_text"].tolist(),
            "textposition": "top center",
            "textfont": {"size": 10, "color": COLORS["slug"]},
            "hovertext": [h + unit_html + t for h, t in zip(sc["head"], sc["tail"])],
            "hovertemplate": "%{hovertext}<extra></extra>",
        },
        "slug event (peak, × baseline)",
    )


def _gap_marks(fig: _FlowFigure, gc: dict[str, np.ndarray], xref: str, yref: str) -> None:
    """The days without enough history for a baseline, shaded grey and labelled."""
    for x0, x1 in zip(
        np.datetime_as_string(gc["first_day"], unit="D").tolist(),
        np.datetime_as_string(gc["last_day"] + 1, unit="D").tolist(),
    ):
        fig.layout["shapes"].append(vrect(x0, x1, xref, yref, COLORS["gap_fill"]))
        fig.layout["annotations"].append(
            {
                "x": x0,
                "y": 0,
                "xref": xref,
                "yref": f"{yref} domain",
                "text": "no baseline yet",
                "showarrow": False,
                "xanchor": "left",
                "yanchor": "bottom",
                "font": {"size": 10, "color": "#4b5563"},
            }
        )


def _flow_panel(
    fig: _FlowFigure, inputs: FlowInputs, c: str, citation: str, xref: str, yref: str
) -> tuple[str, str]:
    """One constituent's panel: its means, the readings near slugs, the baseline and threshold, the slugs and
    the days without a baseline. Returns the name of its means ('hourly mean', '6-hour mean') and its unit."""
    flow = inputs.flow
    times, kinds, values = flow["ts"], flow["kind"], flow["value"]
    rows = np.flatnonzero(flow["constituent"] == c)
    unit = unit_text(next((u for u in flow["unit"][rows] if not is_missing(u)), ""))
    known = flow["bucket_hours"][rows][~np.isnan(flow["bucket_hours"][rows])]
    hours = int(known.max()) if len(known) else 1
    mean_name = f"{'hourly' if hours == 1 else f'{hours}-hour'} mean"
    means = rows[kinds[rows] == "mean"]
    if len(means):
        means = means[_by_time(times[means])]
        _mean_trace(fig, times[means], values[means], hours, mean_name, unit, xref, yref)
    raw = rows[kinds[rows] == "slug"]
    if len(raw):
        raw = raw[_by_time(times[raw])]
        _readings_trace(fig, times[raw], values[raw], unit, xref, yref)
    bl = _of(inputs.baselines, c)
    if bl is not None:
        _baseline_traces(fig, bl, citation, unit, xref, yref)
    sc = _of(inputs.slugs, c)
    if sc is not None:
        _slug_marks(fig, sc, unit, xref, yref)
    gc = _of(inputs.gaps, c)
    if gc is not None:
        _gap_marks(fig, gc, xref, yref)
    return mean_name, unit


def _flow_axes(layout: dict[str, Any], constituents: list[str], units: list[str]) -> None:
    """Each panel's value axis titled with its constituent and unit, one time axis below, the legend under
    it."""
    n = len(constituents)
    for i, (c, unit) in enumerate(zip(constituents, units), start=1):
        layout[layout_key(i, "y")].update({"title": {"text": esc(f"{c} ({unit})")}, "rangemode": "tozero"})
        layout[layout_key(i, "x")].update({"type": "date"})
    layout[layout_key(n, "x")]["title"] = {"text": "local time"}
    layout["legend"] = {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0}
    layout["margin"] = {"l": 70, "r": 20, "t": 40 if n == 1 else 60, "b": 110}


def draw_flow_chart(uid: str, inputs: FlowInputs, words: tuple[str, str]) -> Chart | None:
    """One user's flow and probe traces: a panel per constituent, flow first, with its means, the
    readings near slugs, the baseline and threshold, the slugs and the days without a baseline.
    ``words``: slug_words(the slug rules as applied)."""
    flow = inputs.flow
    if not len(flow["ts"]):
        return None
    constituents = sorted(
        (c for c in pd.unique(flow["constituent"]) if not is_missing(c)), key=lambda c: (c != "flow", str(c))
    )
    n = len(constituents)
    layout, refs = grid(
        n,
        1,
        titles=[f"<b>{esc(c)}</b>" for c in constituents] if n > 1 else (),
        vspace=70 / (FLOW_PANEL_PX * n) if n > 1 else 0,
    )
    fig = _FlowFigure(layout)
    definition, citation = words
    drawn = [_flow_panel(fig, inputs, c, citation, *refs[i]) for i, c in enumerate(constituents)]
    mean_names = list(dict.fromkeys(name for name, _unit in drawn))
    _flow_axes(layout, constituents, [unit for _name, unit in drawn])
    caption = (
        f"{esc(resolution_words(inputs))} {' and '.join(mean_names).capitalize()}s of the readings (the "
        "page's flow points shared among the users charted), plus every reading near each slug (red). "
        "Shaded red: "
        f"slug events, {esc(definition)} ({esc(short_rule(citation, 90))}); the triangle marks the peak "
        f"(zoom in to see the shading). Shaded grey: days without enough history for a baseline."
    )
    return Chart(
        f"flow-{uid}",
        {"data": fig.traces, "layout": layout},
        title="Flow meter and continuous probes",
        caption=caption,
        height=FLOW_PANEL_PX * n + 130,
        print_height=PRINT_FLOW_PX * n + 40,
        print_layout={
            "showlegend": False,
            "margin.t": 12 if n == 1 else 36,
            "margin.b": 26,
            "margin.l": 60,
            "margin.autoexpand": False,
            f"{layout_key(n, 'x')}.title.text": "",
        },
    )
