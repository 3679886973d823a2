"""The flow trace of a user on the sewer page: the means of its readings in buckets of hours that keep to
the page's budget of points, the readings around each slug, the baseline and the gaps. Pure."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from dashboards.figs import MS_PER_HOUR, grid, layout_key, typed, vrect
from dashboards.html import (
    COLORS,
    Chart,
    esc,
    fmt_date,
    fmt_measure,
    is_missing,
    local_naive,
    short_rule,
    unit_text,
)
from dashboards.sewer_control import short_number
from outfall.rules.dated import NOT_STATED, OPEN_START

# On screen each flow panel is this tall (px); on paper, smaller.
FLOW_PANEL_PX = 300
PRINT_FLOW_PX = 140


def slug_words(rules: pd.DataFrame | None) -> tuple[str, str]:
    """(the slug definition in words, its citation) from the slug rules as applied: one version, or each
    with its first day ('from 2027-03-01: more than 4 × ...')."""
    rules = rules if rules is not None else pd.DataFrame()
    if rules.empty:
        return "readings above the slug threshold of their day", ""

    def words(r: pd.Series) -> str:
        return (
            f"readings more than {short_number(r['ratio'])} × the baseline for longer than "
            f"{short_number(r['min_duration_min'])} minutes"
        )

    def _first_day(day: object) -> str:
        return NOT_STATED if str(day)[:10] == OPEN_START.isoformat() else fmt_date(day)

    rows = rules.sort_values("effective_from")
    if len(rows) == 1:
        r = rows.iloc[0]
        return words(r), str(r["rule"])
    return (
        "; ".join(f"from {_first_day(r['effective_from'])}: {words(r)}" for _, r in rows.iterrows()),
        "; ".join(dict.fromkeys(str(r) for r in rows["rule"])),
    )


def resolution_words(uflow: FlowInputs) -> str:
    """Under a flow trace: what each of its points is, e.g. 'Each point is the mean of 6 hours of readings.'
    (per constituent when they differ)."""
    flow = uflow.flow
    means = flow["kind"] == "mean"
    by_constituent: dict[str, int] = {}
    for c, h in zip(flow["constituent"][means], flow["bucket_hours"][means]):
        if not np.isnan(h):
            by_constituent[str(c)] = max(by_constituent.get(str(c), 0), int(h))
    if not by_constituent:
        return ""

    def mean_of(hours: int) -> str:
        return "an hour" if hours == 1 else f"{hours} hours"

    if len(set(by_constituent.values())) == 1:
        return f"Each point is the mean of {mean_of(next(iter(by_constituent.values())))} of readings."
    return (
        "Each point is the mean of "
        + "; ".join(f"{mean_of(h)} of {c} readings" for c, h in by_constituent.items())
        + "."
    )


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
    return {
        "constituent": _column(flow, "constituent"),
        "ts": local_naive(flow["ts"]).to_numpy(dtype="datetime64[ns]"),
        "kind": _column(flow, "kind"),
        "value": flow["value"].to_numpy(dtype=float),
        "unit": _column(flow, "unit"),
        "bucket_hours": flow["bucket_hours"].to_numpy(dtype=float),
    }


def slug_arrays(slugs: pd.DataFrame) -> dict[str, np.ndarray]:
    """The slug events' marks: local start and end ('YYYY-MM-DD HH:MM'), the hover text before and
    after the unit, the peak and its ratio's label, formatted all at once."""
    begins = local_naive(slugs["start_at"]).to_numpy(dtype="datetime64[ns]")
    start = _minutes(begins)
    # the end of the last high reading's interval: the start plus the duration shown, so that they agree
    minutes = slugs["duration_min"].to_numpy(dtype=float)
    end = _minutes(begins + (minutes * 60e9).astype("timedelta64[ns]"))
    head = [
        f"<b>slug</b> {s} to {e[11:]} ({int(minutes)} min)<br>peak {fmt_measure(peak)} "
        for s, e, minutes, peak in zip(start, end, slugs["duration_min"], slugs["peak_value"])
    ]
    tail = [
        f" = {float(ratio):.1f} × baseline {fmt_measure(base)}"
        for ratio, base in zip(slugs["peak_ratio"], slugs["baseline"])
    ]
    return {
        "constituent": _column(slugs, "constituent"),
        "start": start.astype(object),
        "end": end.astype(object),
        "head": np.array(head, dtype=object),
        "tail": np.array(tail, dtype=object),
        "peak_value": slugs["peak_value"].to_numpy(dtype=float),
        "peak_text": np.array([f"{float(v):.1f}×" for v in slugs["peak_ratio"]], dtype=object),
    }


def baseline_arrays(bl: pd.DataFrame) -> dict[str, np.ndarray]:
    """The baselines' days in the frame's order (flow_inputs: those with a threshold, in day order
    within each series)."""
    return {
        "constituent": _column(bl, "constituent"),
        "day": pd.to_datetime(bl["local_day"]).to_numpy(dtype="datetime64[D]"),
        "baseline": bl["baseline"].to_numpy(dtype=float),
        "threshold": bl["threshold"].to_numpy(dtype=float),
        "baseline_source": _column(bl, "baseline_source"),
    }


def gap_arrays(gaps: pd.DataFrame) -> dict[str, np.ndarray]:
    return {
        "constituent": _column(gaps, "constituent"),
        "first_day": pd.to_datetime(gaps["first_day"]).to_numpy(dtype="datetime64[D]"),
        "last_day": pd.to_datetime(gaps["last_day"]).to_numpy(dtype="datetime64[D]"),
    }


def _take(arrays: dict[str, np.ndarray], rows: np.ndarray | slice) -> dict[str, np.ndarray]:
    return {name: a[rows] for name, a in arrays.items()}


def split_by_user(users: np.ndarray, arrays: dict[str, np.ndarray]) -> dict[Any, dict[str, np.ndarray]]:
    """Each user's rows (in their given order), by position: one stable sort when the rows are not
    grouped by user already (the page's queries give them grouped)."""
    if not len(users):
        return {}
    codes, uniques = pd.factorize(users, use_na_sentinel=False)  # numbered in order of first appearance
    if (np.diff(codes) < 0).any():  # a user's rows come after another's: not grouped
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
    codes, distinct = pd.factorize(values)  # a missing value: code -1
    if not len(distinct):
        return None
    counts = np.bincount(codes[codes >= 0], minlength=len(distinct))
    return min(distinct[counts == counts.max()])


def flow_inputs(
    flow: pd.DataFrame, slugs: pd.DataFrame, baselines: pd.DataFrame, gaps: pd.DataFrame
) -> dict[Any, FlowInputs]:
    """Every user's FlowInputs, each frame read and split once (the baselines in day order within
    each user and constituent)."""
    if flow.empty:
        return {}
    out = {
        u: FlowInputs(a)
        for u, a in split_by_user(flow["user_id"].to_numpy(dtype=object), flow_arrays(flow)).items()
    }

    def attach(frame: pd.DataFrame, arrays: Any, name: str) -> None:
        if frame.empty:
            return
        for u, a in split_by_user(frame["user_id"].to_numpy(dtype=object), arrays(frame)).items():
            if u in out:
                setattr(out[u], name, a)

    attach(slugs, slug_arrays, "slugs")
    if not baselines.empty:
        drawn = baselines.dropna(subset=["threshold"])
        attach(
            drawn.sort_values(["user_id", "constituent", "local_day"], kind="stable"),
            baseline_arrays,
            "baselines",
        )
    attach(gaps, gap_arrays, "gaps")
    return out


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


# ----------------------------------------------------------------------- shaping (pure, used by the asset)

BUCKET_HOURS = (1, 2, 3, 4, 6, 8, 12, 24, 48, 168)


def choose_bucket_hours(span_hours: float, max_points: int = 1500) -> int:
    """The finest of 1, 2, 3, 4, 6, 8, 12, 24, 48 or 168 hours giving at most ``max_points`` means.

    A month of readings gets hourly means; a year gets 6-hour means (1,460 points)."""
    for hours in BUCKET_HOURS:
        if span_hours / hours <= max_points:
            return hours
    return BUCKET_HOURS[-1]


def flow_points_per_user(budget: int, users: int) -> int:
    """Each charted user's share of the page's ``budget`` of flow points: the budget divided evenly among
    the ``users`` (rounded down), at least one point each; the whole budget when no user is charted."""
    if budget < 1:
        raise ValueError(f"a budget of flow points is at least 1 (got {budget})")
    if users < 0:
        raise ValueError(f"a number of users is at least 0 (got {users})")
    return budget if users == 0 else max(1, budget // users)
