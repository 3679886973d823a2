"""A flow chart's inputs: the slug rule's words, and each meter's readings, slugs, baselines and gaps as
arrays split by user."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from dashboards.figs import MS_PER_HOUR
from dashboards.html import (
    fmt_date,
    fmt_measure,
    local_naive,
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
