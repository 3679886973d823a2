"""Plotly figures as plain dicts (what plotly.js reads), built without
plotly.py's graph objects: 20-50 times faster to build for pages of dozens of
charts, and smaller (numeric arrays as base64 typed arrays, regular time
series as x0 + dx instead of a timestamp per point).
"""

from __future__ import annotations

import base64
import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

Figure = dict  # {"data": [...], "layout": {...}}

MS_PER_HOUR = 3_600_000


def typed(values: Iterable[Any], dtype: str = "f8") -> dict[str, str]:
    """A numeric array as plotly.js's typed-array form {dtype, bdata} (NaN = gap)."""
    np_dtype = {"f8": np.float64, "f4": np.float32, "i4": np.int32, "i2": np.int16, "u1": np.uint8}[dtype]
    arr = np.asarray(
        list(values) if not isinstance(values, (np.ndarray, pd.Series)) else values, dtype=np_dtype
    )
    return {"dtype": dtype, "bdata": base64.b64encode(np.ascontiguousarray(arr).tobytes()).decode("ascii")}


def clean(value: Any) -> Any:
    """A JSON-able value: NaN/NaT/None -> None, numpy scalars -> Python numbers."""
    if value is None or value is pd.NaT:
        return None
    if isinstance(value, (np.floating, float)):
        f = float(value)
        return None if math.isnan(f) or math.isinf(f) else f
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, (pd.Timestamp,)):
        return value.strftime("%Y-%m-%d %H:%M")
    return value


def values(seq: Iterable[Any]) -> list[Any]:
    return [clean(v) for v in seq]


def axis_name(n: int, axis: str) -> str:
    """'x', 'x2', ... for traces; layout keys are 'xaxis', 'xaxis2', ..."""
    return axis if n == 1 else f"{axis}{n}"


def layout_key(n: int, axis: str) -> str:
    return f"{axis}axis" if n == 1 else f"{axis}axis{n}"


def grid(
    nrows: int,
    ncols: int = 1,
    *,
    titles: Sequence[str] = (),
    vspace: float = 0.08,
    hspace: float = 0.08,
    shared_x: bool = True,
    row_heights: Sequence[float] | None = None,
    count: int | None = None,
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """A layout of nrows x ncols subplots (row-major; only the first ``count`` cells get axes),
    and each subplot's (xaxis, yaxis) trace refs.

    shared_x: every x axis matches the first (zoom one panel, all follow)."""
    count = nrows * ncols if count is None else count
    layout: dict[str, Any] = {"annotations": [], "shapes": []}
    refs: list[tuple[str, str]] = []
    col_w = (1.0 - hspace * (ncols - 1)) / ncols
    total_h = 1.0 - vspace * (nrows - 1)
    weights = list(row_heights) if row_heights else [1.0] * nrows
    heights = [total_h * w / sum(weights) for w in weights]
    top = 1.0
    n = 0
    for r in range(nrows):
        bottom = max(0.0, top - heights[r])
        for c in range(ncols):
            if n >= count:
                break
            n += 1
            x0 = c * (col_w + hspace)
            x_key, y_key = layout_key(n, "x"), layout_key(n, "y")
            xa: dict[str, Any] = {"domain": [round(x0, 4), round(x0 + col_w, 4)], "anchor": axis_name(n, "y")}
            ya: dict[str, Any] = {"domain": [round(bottom, 4), round(top, 4)], "anchor": axis_name(n, "x")}
            if shared_x and n > 1:
                xa["matches"] = "x"
            layout[x_key] = xa
            layout[y_key] = ya
            refs.append((axis_name(n, "x"), axis_name(n, "y")))
            if n - 1 < len(titles) and titles[n - 1]:
                layout["annotations"].append(
                    {
                        "text": titles[n - 1],
                        "x": round(x0 + col_w / 2, 4),
                        "y": round(top, 4),
                        "xref": "paper",
                        "yref": "paper",
                        "xanchor": "center",
                        "yanchor": "bottom",
                        "showarrow": False,
                        "font": {"size": 12.5},
                    }
                )
        top = bottom - vspace
    return layout, refs


def vrect(x0: str, x1: str, xref: str, yref: str, fill: str) -> dict[str, Any]:
    """A shaded band over a subplot's full height."""
    return {
        "type": "rect",
        "xref": xref,
        "yref": f"{yref} domain",
        "x0": x0,
        "x1": x1,
        "y0": 0,
        "y1": 1,
        "fillcolor": fill,
        "line": {"width": 0},
        "layer": "below",
    }


def legend_entry(name: str, **trace: Any) -> dict[str, Any]:
    """A legend-only trace (no points), for a marker style used by other traces."""
    return {
        "type": "scatter",
        "x": [None],
        "y": [None],
        "name": name,
        "showlegend": True,
        "hoverinfo": "skip",
        **trace,
    }
