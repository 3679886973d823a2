"""Plotly figures on a page: the shared layout, a chart placed on a page, times for a date axis."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from dashboards.html.text import esc, script_json, slug
from dashboards.html.theme import FONT
from outfall.rules import local_timezone

# --------------------------------------------------------------------------- figures

# The layout defaults every figure shares, sent once per page (not per figure).
TEMPLATE: dict[str, Any] = {
    "layout": {
        "font": {"family": FONT, "size": 12, "color": "#1f2937"},
        "paper_bgcolor": "#ffffff",
        "plot_bgcolor": "#ffffff",
        "colorway": ["#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#4b5563"],
        "hovermode": "closest",
        "hoverlabel": {"font": {"family": FONT, "size": 12}, "align": "left"},
        "margin": {"l": 70, "r": 30, "t": 40, "b": 50},
        "legend": {
            "orientation": "h",
            "yanchor": "bottom",
            "y": 1.02,
            "xanchor": "left",
            "x": 0,
            "font": {"size": 11},
        },
        "xaxis": {
            "showgrid": True,
            "gridcolor": "#eef2f7",
            "linecolor": "#9ca3af",
            "showline": True,
            "ticks": "outside",
            "tickcolor": "#9ca3af",
            "zeroline": False,
            "automargin": True,
        },
        "yaxis": {
            "showgrid": True,
            "gridcolor": "#eef2f7",
            "linecolor": "#9ca3af",
            "showline": True,
            "ticks": "outside",
            "tickcolor": "#9ca3af",
            "zeroline": False,
            "automargin": True,
        },
    }
}

PLOTLY_CONFIG = {
    "displaylogo": False,
    "responsive": True,
    "scrollZoom": False,
    "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d"],
    "toImageButtonOptions": {"format": "png", "scale": 2},
}


@dataclass
class Chart:
    """A figure placed on a page: drawn by the page's script when scrolled into view."""

    chart_id: str
    figure: Any  # a dict {"data", "layout"} (dashboards.figs) or a plotly go.Figure
    title: str = ""
    caption: str = ""  # HTML (escape data first)
    height: int = 400
    click_anchor_prefix: str = ""  # a click on a point with customdata[0] = X jumps to #<prefix>X
    extra_class: str = ""
    print_height: int = 0  # on paper: drawn this tall (0: as on screen)
    printed: bool = True  # False: on screen only (the page says where the rest are)
    print_layout: dict[str, Any] = field(default_factory=dict)  # on paper: these layout changes too

    def spec(self) -> dict[str, Any]:
        fig = self.figure
        if isinstance(fig, go.Figure):
            fig.update_layout(template="none")
            data = json.loads(pio.to_json(fig, validate=False, remove_uids=True))
        else:
            data = {"data": fig.get("data", []), "layout": dict(fig.get("layout", {}))}
        layout = data.get("layout", {})
        layout.pop("template", None)
        layout["height"] = self.height
        out = {"data": data.get("data", []), "layout": layout, "config": PLOTLY_CONFIG}
        if self.click_anchor_prefix:
            out["clickAnchor"] = self.click_anchor_prefix
        return out

    def html(self) -> str:
        spec_id = f"fig-{slug(self.chart_id)}"
        title = f'<h3 class="chart-title">{esc(self.title)}</h3>' if self.title else ""
        caption = f'<p class="chart-caption">{self.caption}</p>' if self.caption else ""
        cls = f"chart {self.extra_class}".strip()
        box = (
            "chart-box"
            + ("" if self.printed else " no-print")
            + (" chart-small" if self.print_height else "")
        )
        tall = f' data-print-height="{int(self.print_height)}"' if self.print_height else ""
        if self.print_layout:
            tall += f' data-print-layout="{esc(script_json(self.print_layout))}"'
        return (
            f'<figure class="{box}">{title}<div class="{cls}" id="{spec_id}-div" data-fig="{spec_id}"{tall} '
            f'style="min-height:{int(self.height)}px"><span class="chart-wait">Chart '
            f'loading…</span></div>{caption}<script type="application/json" '
            f'id="{spec_id}">{script_json(self.spec())}</script></figure>'
        )


def local_naive(series: pd.Series) -> pd.Series:
    """Timestamps as local (the town's time zone) wall-clock times without zone, for chart axes."""
    if isinstance(series, pd.Series) and pd.api.types.is_datetime64_dtype(series.dtype):
        return series  # local wall-clock times already (what the pages' queries give)
    s = pd.to_datetime(series)
    if getattr(s.dt, "tz", None) is not None:
        s = s.dt.tz_convert(local_timezone()).dt.tz_localize(None)
    return s


def axis_times(series: pd.Series, with_time: bool = True) -> list[str]:
    """Short date strings for a Plotly date axis (smaller than the default ISO with nanoseconds)."""
    s = local_naive(series)
    fmt = "%Y-%m-%d %H:%M" if with_time else "%Y-%m-%d"
    if isinstance(s, pd.Series) and pd.api.types.is_datetime64_dtype(s.dtype):  # all at once
        return [v if isinstance(v, str) else None for v in s.dt.strftime(fmt).tolist()]
    return [v.strftime(fmt) if not pd.isna(v) else None for v in s]
