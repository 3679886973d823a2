"""The control chart of a user's lab results on the sewer page: each limited parameter a panel, the limit
drawn and labelled with its section, violations marked, non-detects as open markers at the detection
value; and each lab result labelled with its outcome. Pure."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from dashboards.figs import grid, layout_key, legend_entry, typed
from dashboards.html import (
    COLORS,
    Chart,
    axis_times,
    esc,
    is_missing,
    short_rule,
    unit_text,
)
from outfall.vocab import parameter_order, parameter_short as param_label

# On screen each control chart's row of panels is this tall (px); on paper, smaller.
CONTROL_PANEL_PX = 215
PRINT_PANEL_PX = 78


def short_number(v: Any, digits: int = 3) -> str:
    """A measurement without trailing zeros (240, 5.49, 0.012)."""
    if is_missing(v):
        return ""
    text = f"{float(v):.{digits}f}".rstrip("0").rstrip(".")
    return text or "0"


# ----------------------------------------------------------------------- control chart

# outcome code -> (legend name, color, symbol, size)
OUTCOME_STYLE = {
    0: ("result", COLORS["result"], "circle", 6),
    1: ("non-detect (open circle at the detection value)", COLORS["nondetect"], "circle-open", 8),
    2: (
        "inconclusive: non-detect whose detection value is above the limit",
        COLORS["inconclusive"],
        "diamond-open",
        11,
    ),
    3: ("violation", COLORS["violation"], "circle", 11),
}
_SCALE = [
    [0, OUTCOME_STYLE[0][1]],
    [0.25, OUTCOME_STYLE[0][1]],
    [0.25, OUTCOME_STYLE[1][1]],
    [0.5, OUTCOME_STYLE[1][1]],
    [0.5, OUTCOME_STYLE[2][1]],
    [0.75, OUTCOME_STYLE[2][1]],
    [0.75, OUTCOME_STYLE[3][1]],
    [1, OUTCOME_STYLE[3][1]],
]


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


def _hover(
    code: int,
    sample_id: Any,
    value: float,
    qualifier: Any,
    unit: str,
    limit_value: Any,
    limit_type: Any,
    ratio: Any,
    rule: Any,
) -> str:
    if code == 0:
        return ""
    if code in (1, 2):
        text = (
            f"ND at detection value {short_number(value)} {unit}"
            if qualifier == "ND"
            else f"non-detect {esc(qualifier or '<')}{short_number(value)} {unit}"
        )
        text += f"<br>sample {esc(sample_id)}"
        if code == 2:
            text += "<br><b>inconclusive</b>: detection value above the limit (not a violation)"
        return text
    text = f"sample {esc(sample_id)}"
    if not is_missing(limit_value):
        r = f", {float(ratio):.2f}× the limit" if not is_missing(ratio) else ""
        text += (
            f"<br><b>violation</b> of {esc(limit_type)} {short_number(limit_value)} {unit}{r}"
            f"<br>{esc(short_rule(rule, 90))}"
        )
    else:
        text += "<br><b>violation</b>"
    return text


def _unit_of(rows: pd.DataFrame) -> str:
    """The unit of a parameter's results as a reader writes it: that of its first row with one."""
    return unit_text(rows["unit"].dropna().iloc[0]) if rows["unit"].notna().any() else ""


def _control_title(p: str, rp: pd.DataFrame) -> str:
    """A panel's title: the parameter, its unit and how many results, violations and non-detects it has."""
    nv = int((rp["outcome"] == "violation").sum())
    nd = int(rp["nondetect"].fillna(False).astype(bool).sum())
    bits = [f"{len(rp)} result{'s' if len(rp) != 1 else ''}"]
    if nv:
        bits.append(
            f"<span style='color:{COLORS['violation']}'>{nv} violation{'s' if nv != 1 else ''}</span>"
        )
    if nd:
        bits.append(f"{nd} non-detect{'s' if nd != 1 else ''}")
    return f"<b>{esc(param_label(p))}</b> ({esc(_unit_of(rp))}): {', '.join(bits)}"


def _control_legend() -> list[dict[str, Any]]:
    """The legend's entries, once for every panel: each outcome's marker and the limit's line."""
    traces = []
    for code in (0, 1, 2, 3):
        name, color, symbol, size = OUTCOME_STYLE[code]
        traces.append(
            legend_entry(
                name,
                mode="markers",
                marker={
                    "color": color,
                    "symbol": symbol,
                    "size": size,
                    "line": {"width": 2 if code in (1, 2) else 1, "color": color},
                },
            )
        )
    traces.append(
        legend_entry(
            "limit in effect (value and section labelled)",
            mode="lines",
            line={"color": COLORS["limit"], "dash": "dash", "width": 2},
        )
    )
    return traces


def _results_trace(p: str, rp: pd.DataFrame, unit: str, xref: str, yref: str) -> dict[str, Any]:
    """A parameter's results in time order, each marked by its outcome, with its hover text."""
    codes = outcome_codes(rp)
    hover = [
        _hover(int(c), *row, unit, *rest)
        for c, row, rest in zip(
            codes,
            zip(rp["sample_id"], rp["value"], rp["qualifier"]),
            zip(rp["limit_value"], rp["limit_type"], rp["exceedance_ratio"], rp["rule"]),
        )
    ]
    return {
        "type": "scatter",
        "mode": "lines+markers",
        "xaxis": xref,
        "yaxis": yref,
        "showlegend": False,
        "name": esc(param_label(p)),
        "x": axis_times(rp["t"]),
        "y": typed(rp["value"].astype(float)),
        "line": {"color": COLORS["trend"], "width": 1},
        "marker": {
            "color": codes.tolist(),
            "cmin": -0.5,
            "cmax": 3.5,
            "colorscale": _SCALE,
            "symbol": [OUTCOME_STYLE[c][2] for c in codes],
            "size": [OUTCOME_STYLE[c][3] for c in codes],
            "line": {"width": 2, "color": codes.tolist(), "cmin": -0.5, "cmax": 3.5, "colorscale": _SCALE},
        },
        "text": hover,
        "hovertemplate": f"%{{x|%Y-%m-%d %H:%M}}<br>{esc(param_label(p))} %{{y}} {esc(unit)}<br>%{{text}}"
        "<extra></extra>",
    }


def _limit_line(
    ltype: str, lim: pd.DataFrame, unit: str, span: tuple[Any, Any], xref: str, yref: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One limit type's step line across the results' ``span`` (first and last sample), and a label at the
    start of each segment with its value and section."""
    lim = lim.sort_values("t").drop_duplicates(subset=["t"], keep="last")
    steps = limit_steps(lim)
    xs = list(steps["t"])
    ys = [float(v) for v in steps["limit_value"]]
    if span[0] < xs[0]:
        xs[0] = span[0]
    xs.append(max(span[1], lim["t"].iloc[-1]))
    ys.append(ys[-1])
    trace = {
        "type": "scatter",
        "mode": "lines",
        "xaxis": xref,
        "yaxis": yref,
        "showlegend": False,
        "x": axis_times(pd.Series(xs)),
        "y": ys,
        "line": {"color": COLORS["limit"], "width": 2, "dash": "dash", "shape": "hv"},
        "hovertemplate": f"{esc(ltype)} limit %{{y}} {esc(unit)}<extra></extra>",
    }
    labels = [
        {
            "x": x.strftime("%Y-%m-%d %H:%M"),
            "y": float(v),
            "xref": xref,
            "yref": yref,
            "text": esc(f"{ltype} {short_number(v)} {unit} · {short_rule(rule, 72)}"),
            "showarrow": False,
            "xanchor": "left",
            "yanchor": "bottom" if ltype == "max" else "top",
            "font": {"size": 10, "color": COLORS["limit"]},
            "bgcolor": "rgba(255,255,255,0.8)",
        }
        for x, v, rule in zip(xs[:-1], steps["limit_value"], steps["rule"])
    ]
    return trace, labels


def _control_axes(layout: dict[str, Any], count: int, ncols: int) -> None:
    """The bottom row's time axes titled, the margins and the legend above the panels."""
    for n in range(count - ncols + 1, count + 1):
        layout[layout_key(n, "x")]["title"] = {"text": "sample collected (local time)", "font": {"size": 11}}
    layout["margin"] = {"l": 70, "r": 20, "t": 95, "b": 50}
    layout["legend"] = {"orientation": "h", "yref": "container", "y": 1, "yanchor": "top", "x": 0}


def control_chart(uid: str, results: pd.DataFrame, limits: pd.DataFrame) -> Chart | None:
    """One panel per limited parameter (two columns when there are three or more), one time axis.

    ``results`` and ``limits`` are one user's, each with a local-time column ``t``."""
    by_param = dict(tuple(results.groupby("parameter"))) if not results.empty else {}
    limits_by_param = dict(tuple(limits.groupby("parameter"))) if not limits.empty else {}
    params = sorted((p for p in limits_by_param if p in by_param), key=parameter_order)
    if not params:
        return None
    ncols = 2 if len(params) >= 3 else 1
    nrows = -(-len(params) // ncols)
    titles = [_control_title(p, by_param[p]) for p in params]
    plot_h = CONTROL_PANEL_PX * nrows
    layout, refs = grid(
        nrows,
        ncols,
        titles=titles,
        vspace=min(0.3, 62 / plot_h) if nrows > 1 else 0,
        hspace=0.07,
        count=len(params),
    )
    traces = _control_legend()
    span = (results["t"].min(), results["t"].max())
    for n, (p, (xref, yref)) in enumerate(zip(params, refs), start=1):
        rp = by_param[p].sort_values("t")
        unit = _unit_of(rp)
        traces.append(_results_trace(p, rp, unit, xref, yref))
        for ltype, lim in limits_by_param[p].groupby("limit_type"):
            line, labels = _limit_line(ltype, lim, unit, span, xref, yref)
            traces.append(line)
            layout["annotations"] += labels
        layout[layout_key(n, "y")].update(
            {"title": {"text": esc(f"{param_label(p)} ({unit})"), "font": {"size": 11}}}
        )
        layout[layout_key(n, "x")].update({"type": "date", "showticklabels": True})
    _control_axes(layout, len(params), ncols)
    return Chart(
        f"control-{uid}",
        {"data": traces, "layout": layout},
        title="Control charts: every limited parameter",
        caption=(
            "Each dot is a result in time order. Open grey circles are non-detects drawn at their "
            "detection value; red dots break the limit; orange diamonds are non-detects whose "
            "detection value is above the limit (inconclusive, reported apart). The dashed line is "
            "the limit in effect at each sample, labelled with its value and section."
        ),
        height=plot_h + 150,
        print_height=PRINT_PANEL_PX * -(-len(params) // print_columns(len(params))) + 50,
        print_layout=control_print_layout(layout, titles, ncols),
    )


def print_columns(panels: int) -> int:
    """On paper, panels side by side: up to three (the page is wide and short)."""
    return panels if panels <= 3 else (2 if panels == 4 else 3)


def control_print_layout(layout: dict[str, Any], titles: list[str], screen_columns: int) -> dict[str, Any]:
    """The changes that draw a control chart on paper: its panels three to a row, no legend (the caption
    says what each mark is), small labels, each axis titled by its panel's title only."""
    count = len(titles)
    cols = print_columns(count)
    rows = -(-count // cols)
    plot_px = PRINT_PANEL_PX * rows
    paper, _refs = grid(
        rows, cols, titles=titles, vspace=min(0.3, 42 / plot_px) if rows > 1 else 0, hspace=0.06, count=count
    )
    out: dict[str, Any] = {
        "showlegend": False,
        "margin.t": 22,
        "margin.b": 22,
        "margin.l": 50,
        "margin.autoexpand": False,
    }
    for n in range(1, count + 1):
        for axis in ("x", "y"):
            out[f"{layout_key(n, axis)}.domain"] = paper[layout_key(n, axis)]["domain"]
        out[f"{layout_key(n, 'x')}.title.text"] = ""
        out[f"{layout_key(n, 'y')}.title.text"] = ""
        out[f"{layout_key(n, 'x')}.tickfont.size"] = 9
        out[f"{layout_key(n, 'y')}.tickfont.size"] = 9
    for i, title in enumerate(paper["annotations"]):  # the panels' titles come first in both layouts
        out[f"annotations[{i}].x"], out[f"annotations[{i}].y"] = title["x"], title["y"]
        out[f"annotations[{i}].font.size"] = 10
    for i in range(len(paper["annotations"]), len(layout["annotations"])):  # a limit's label: its value
        out[f"annotations[{i}].font.size"] = 8
        out[f"annotations[{i}].text"] = str(layout["annotations"][i]["text"]).split(" · ")[0]
    return out


def label_results(
    lab: pd.DataFrame,
    evaluations: pd.DataFrame | None = None,
    violations: pd.DataFrame | None = None,
    inconclusive: pd.DataFrame | None = None,
) -> pd.DataFrame:
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
            ev[key + ["outcome", "limit_value", "limit_type", "exceedance_ratio", "rule"]], on=key, how="left"
        )
        return merged
    if violations is not None and not violations.empty:
        v = (
            violations.sort_values("exceedance_ratio" if "exceedance_ratio" in violations else "value")
            .groupby(key, as_index=False)
            .last()
        )
        out = out.drop(columns=["limit_value", "limit_type", "exceedance_ratio", "rule"]).merge(
            v[key + [c for c in ("limit_value", "limit_type", "exceedance_ratio", "rule") if c in v]],
            on=key,
            how="left",
        )
        out.loc[out["limit_value"].notna(), "outcome"] = "violation"
    if inconclusive is not None and not inconclusive.empty:
        ik = set(map(tuple, inconclusive[key].astype(str).to_numpy()))
        mask = [tuple(r) in ik for r in out[key].astype(str).to_numpy()]
        out.loc[mask, "outcome"] = out.loc[mask, "outcome"].fillna("inconclusive")
    return out
