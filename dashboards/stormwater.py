"""The stormwater officer's page: the week's upcoming inspections, sites by
status, and per site a timeline of inspections against daily rainfall with the
storm threshold (from the rules) and the late and overdue findings.

Pure: ``build_stormwater_page(StormwaterData) -> (html, PageMeta)``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from dashboards.figs import grid, layout_key, typed
from dashboards.html import (
    COLORS,
    Chart,
    Col,
    Kpi,
    PageData,
    PageMeta,
    RuleNotes,
    as_frame,
    badge,
    day_words,
    esc,
    fmt_date,
    fmt_num,
    fmt_usd,
    frames,
    is_missing,
    join,
    judged_kpi,
    judged_nothing,
    kpis,
    law_cited,
    months_words,
    named,
    no_data,
    none_note,
    note,
    noun,
    page,
    role_name,
    section,
    short_name,
    short_rule,
    slug,
    table,
)
from dashboards.notices import finding_words, notices_table, period_words, stormwater_follow_up
from dashboards.worklist import worklist_panel
from outfall.law import swppp as law
from outfall.rules import RulesError

KIND_SYMBOL = {"routine": "circle", "storm": "triangle-up", "milestone": "square", "officer": "star"}
STATUS_ORDER = {
    "overdue": 0,
    "late": 1,
    "in compliance": 2,
    "not started": 3,
    "stabilized": 4,
    "not required": 5,
}
STATUS_TONE = {
    "overdue": "bad",
    "late": "warn",
    "in compliance": "good",
    "stabilized": "info",
    "not required": "",
    "not started": "",
}


@dataclass
class StormwaterData(PageData):
    """Frames read from the warehouse. ``None`` = the table does not exist yet.

    sites: the sites input; classification: site_classification; findings: swppp_inspection_findings;
    other: swppp_other_findings; notices: swppp_notices; upcoming: swppp_upcoming;
    inspections: site_id, inspected_on, inspector, kind, sediment_capacity_lost_pct, notes;
    rain: gauge_key (lower-case, trimmed gauge id), date, precip_in (daily total).
    rules: jurisdiction -> its typed rules (outfall.rules.Rules): a storm day is one that
        outfall.law.swppp.is_storm says is (the page applies no threshold of its own), and the
        threshold line and its citation are those in effect on the as-of day.
    letters: file name -> link (href relative to the page) of the notices' letters that exist.
    """

    sites: pd.DataFrame | None = None
    classification: pd.DataFrame | None = None
    findings: pd.DataFrame | None = None
    other: pd.DataFrame | None = None
    notices: pd.DataFrame | None = None
    upcoming: pd.DataFrame | None = None
    inspections: pd.DataFrame | None = None
    rain: pd.DataFrame | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    letters: dict[str, str] = field(default_factory=dict)
    week_days: int = 7
    # the monthly notices (table notices) and each missed inspection's follow-up from its notice
    monthly_notices: pd.DataFrame | None = None
    follow_up: pd.DataFrame | None = None
    # contract 5.3 and 5.4: illicit discharge cases (illicit_discharges), their deadlines and charges,
    # the cases' letters (case_id, kind, letter_file, draft, ready_to_mail; links in ``letters``),
    # and the post-construction practice findings (smp_findings).
    illicit_cases: pd.DataFrame | None = None
    illicit_deadlines: pd.DataFrame | None = None
    illicit_charges: pd.DataFrame | None = None
    illicit_letters: pd.DataFrame | None = None
    smp_findings: pd.DataFrame | None = None
    illicit_set_aside: set[str] = field(default_factory=set)  # cases set aside in the quarantine, not judged
    # what each person must do next (table worklist): the page opens with the stormwater officer's
    worklist: pd.DataFrame | None = None
    # what the notices list, by kind of item (kind, item, items)
    notice_items: pd.DataFrame | None = None
    # the laws the town's rules name for its business days' holidays and for a period that ends on a weekend
    # or holiday ("": they name none, and no period moves)
    holiday_law: str = ""
    deadline_law: str = ""


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


# --------------------------------------------------------------------------- page: a list of panels

UPCOMING_WORDS = {
    "overdue": ("Overdue", "bad"),
    "due_today": ("Due today", "warn"),
    "due_tomorrow": ("Due tomorrow", "warn"),
    "upcoming": ("Upcoming", "info"),
}
REQUIREMENT_WORDS = {
    "weekly": "weekly inspection",
    "storm": "inspection after a storm",
    "milestone": "milestone inspection",
}


@dataclass
class StormwaterView:
    """What the panels share, worked out once: the frames, each site's status and name, the months the
    findings cover, the jurisdictions' names and the charts drawn so far."""

    data: StormwaterData
    status: pd.DataFrame
    findings: pd.DataFrame
    other: pd.DataFrame
    upcoming: pd.DataFrame
    insp: pd.DataFrame
    rain: pd.DataFrame
    names: dict[Any, Any]
    charts: list[Chart] = field(default_factory=list)

    @property
    def as_of(self) -> pd.Timestamp:
        return pd.Timestamp(self.data.as_of)

    @property
    def week_end(self) -> pd.Timestamp:
        return self.as_of + pd.Timedelta(days=self.data.week_days)

    @property
    def period(self) -> str:
        """The months of the inspections' due days: 'March 2026 to November 2026'."""
        if self.findings.empty:
            return "no finding yet"
        days = pd.to_datetime(self.findings["due_by"]).dropna()
        return months_words(days.min(), days.max()) if len(days) else "no finding yet"

    def week(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The upcoming inspections due by the week's end (overdue ones too), and the later ones."""
        up = self.upcoming
        if up.empty:
            return up, up
        up = up.assign(due_by=pd.to_datetime(up["due_by"]))
        return (
            up[up["due_by"] <= self.week_end].sort_values(["due_by", "site_id"]),
            up[up["due_by"] > self.week_end],
        )

    def jurisdiction(self, value: Any) -> str:
        """The jurisdiction's name as its rules file gives it ("Village of ...")."""
        rules = self.data.rules.get(str(value)) if not is_missing(value) else None
        return rules.name if rules is not None and rules.name else str(value or "").title()

    def site(self, width: str = "24%") -> Col:
        return Col(
            "site_id",
            "Site",
            width=width,
            html=lambda r: named(
                r["site_id"], short_name(self.names.get(r["site_id"])), f"#site-{slug(r['site_id'])}"
            ),
        )


def stormwater_view(data: StormwaterData) -> StormwaterView:
    status = site_status(data)
    findings, other, upcoming, insp, rain = frames(
        data, "findings", "other", "upcoming", "inspections", "rain"
    )
    names: dict[Any, Any] = {}
    for frame, column in ((as_frame(data.sites), "name"), (status, "name"), (upcoming, "site_name")):
        if not frame.empty and column in frame:
            names.update({s: n for s, n in zip(frame["site_id"], frame[column]) if not is_missing(n)})
    return StormwaterView(data, status, findings, other, upcoming, insp, rain, names)


def panel_worklist(view: StormwaterView) -> str:
    return worklist_panel(view.data.worklist, "stormwater_officer", view.data.as_of, view.data.laws)


def _notice_counts(view: StormwaterView) -> tuple[int, int, int, int, str]:
    """(notices, mailed, drafts, findings listed, their months) of the stormwater notices."""
    notices = as_frame(view.data.monthly_notices)
    rows = notices[notices["kind"] == "stormwater"] if not notices.empty else notices
    if rows.empty:
        return 0, 0, 0, 0, "none yet"
    mailed = int((rows["status"] == "mailed").sum())
    drafts = int((rows["status"] == "draft").sum())
    months = pd.to_datetime(rows["period"].astype(str) + "-01", errors="coerce")
    return len(rows), mailed, drafts, int(rows["violations"].sum()), months_words(months.min(), months.max())


def panel_headline(view: StormwaterView) -> str:
    """The counts of the page, each linked to the list it counts (the list's rows on this page number the
    card's count); a 0 the rules do not judge reads "not judged" (contract 8.6)."""
    data, status = view.data, view.status
    active = (
        int((status["status"].isin(["overdue", "late", "in compliance"])).sum()) if not status.empty else 0
    )
    notices, mailed, drafts, listed, months = _notice_counts(view)
    day = day_words(data.as_of)
    cards = [
        *(judged_kpi(data.judged, "inspections", card) for card in _inspection_cards(view, day)),
        Kpi(
            f"construction {noun(len(status), 'site')}",
            fmt_num(len(status)),
            f"{active} needing inspections on {day}",
            "",
            "#sites",
        ),
        judged_kpi(
            data.judged,
            "stormwater_notices",
            Kpi(
                f"{noun(notices, 'notice of violation', 'notices of violation')}, {months}",
                fmt_num(notices),
                f"one per site and month: {mailed} mailed, {drafts} {noun(drafts, 'draft')}; they list "
                f"{listed} {noun(listed, 'finding')}",
                "",
                "#monthly-notices",
            ),
        ),
    ]
    if data.illicit_deadlines is not None:
        cards.append(judged_kpi(data.judged, "illicit", _illicit_card(data, day)))
    return kpis(cards)


def _inspection_cards(view: StormwaterView, day: str) -> list[Kpi]:
    """The inspections overdue, made late and due this week."""
    findings = view.findings
    n_overdue = int((findings["status"] == "overdue").sum()) if not findings.empty else 0
    n_late = int((findings["status"] == "late").sum()) if not findings.empty else 0
    week, _later = view.week()
    week_overdue = int((week["status"] == "overdue").sum()) if not week.empty else 0
    return [
        Kpi(
            f"{noun(n_overdue, 'inspection')} overdue, {view.period}",
            fmt_num(n_overdue),
            f"due and not made by {day}",
            "bad" if n_overdue else "good",
            "#inspections-overdue",
        ),
        Kpi(
            f"{noun(n_late, 'inspection')} made late, {view.period}",
            fmt_num(n_late),
            "made after the day they were due",
            "warn" if n_late else "good",
            "#inspections-late",
        ),
        Kpi(
            f"{noun(len(week), 'inspection')} due by {view.week_end:%A %B} {view.week_end.day}",
            fmt_num(len(week)),
            f"{week_overdue} of them overdue already",
            "warn" if len(week) else "good",
            "#upcoming",
        ),
    ]


def _illicit_card(data: StormwaterData, day: str) -> Kpi:
    """The illicit discharge deadlines overdue: the length of the list the cases' section shows first."""
    overdue = overdue_deadlines(as_frame(data.illicit_deadlines))
    town = int(overdue["obligation"].isin(TOWN_ACTS).sum()) if not overdue.empty else 0
    return Kpi(
        f"illicit discharge {noun(len(overdue), 'deadline')} overdue",
        fmt_num(len(overdue)),
        f"{law_cited(data.laws, 'illicit_discharges')} cases, on {day}: {town} the {data.municipality}'s own "
        f"(also on the list above), {len(overdue) - town} the responsible parties'",
        "bad" if len(overdue) else "good",
        "#illicit-overdue",
    )


# The deadlines of an illicit discharge case that are the Town's own acts (the officer's worklist); the
# others are the responsible party's (notify, confirm, abate, appeal, protest).
TOWN_ACTS = ("appeal_hearing", "cost_notice")


def overdue_deadlines(deadlines: pd.DataFrame) -> pd.DataFrame:
    """The deadlines of the cases overdue on the day judged: the list the card counts."""
    return deadlines[deadlines["status"] == "overdue"] if not deadlines.empty else deadlines


def _due_badge(r: pd.Series) -> str:
    words, tone = UPCOMING_WORDS.get(
        str(r.get("status") or ""), (str(r.get("status") or "").replace("_", " "), "info")
    )
    days = r.get("days_until_due")
    if not is_missing(days):
        d = int(days)
        words += f" ({-d} days ago)" if d < 0 else (f" (in {d} days)" if d > 1 else "")
    return badge(words, tone)


def _upcoming_cols(view: StormwaterView, rules: RuleNotes, with_status: bool) -> list[Col]:
    cols = [Col("due_by", "Due by", fmt=lambda v: pd.Timestamp(v).strftime("%a %Y-%m-%d"), nowrap=True)]
    if with_status:
        cols.append(Col("status", "When", html=_due_badge, nowrap=True))
    return cols + [
        view.site(),
        Col("requirement", "Inspection", fmt=lambda v: REQUIREMENT_WORDS.get(v, v)),
        Col("inspector", "By"),
        Col("detail", "Why"),
        rules.col("rule", "Rule (section)", limit=40),
    ]


def panel_upcoming(view: StormwaterView) -> str:
    data = view.data
    week, later = view.week()
    rules = RuleNotes("rule-upcoming")
    if data.upcoming is None or view.upcoming.empty:
        html_text = judged_nothing(
            data.judged,
            "inspections",
            "swppp_upcoming",
            data.present,
            "No inspection is due.",
            what="upcoming inspections",
        )
    elif week.empty:
        html_text = none_note(
            data.judged, "inspections", f"No inspection is due by {view.week_end:%A %B %d}."
        )
    else:
        html_text = table(
            week,
            _upcoming_cols(view, rules, True),
            row_class=lambda r: "row-bad" if r.get("status") == "overdue" else "row-warn",
        )
    if data.upcoming is not None and not later.empty:
        html_text += f"<h3>Due after {view.week_end:%A %B %d} ({len(later)})</h3>" + table(
            later.sort_values(["due_by", "site_id"]), _upcoming_cols(view, rules, False)
        )
    return section(
        f"This week's inspections (through {view.week_end:%A %B %d})",
        html_text + rules.notes(),
        sid="upcoming",
        lead=esc(
            f"Overdue first, then by due date. Storm inspections are due "
            f"{_storm_window_words(data)} a day with rain at or above the storm "
            "threshold."
        ),
    )


def conditions_legend(view: StormwaterView) -> str:
    """Conditions A, B and C in the rules' own words, with where each says so."""
    as_of = view.data.as_of
    found: dict[str, dict[str, list[str]]] = {}
    for j, rules in sorted(view.data.rules.items()):
        versions = [rules.swppp.applicability.get(as_of)]
        if rules.swppp.conditions is not None:
            versions.append(rules.swppp.conditions.get(as_of))
        for version in versions:
            for letter in ("a", "b", "c"):
                condition = getattr(version, f"condition_{letter}", None)
                if condition is None:
                    continue
                head, _, words = condition.citation.partition(": ")
                found.setdefault(letter.upper(), {}).setdefault(words or head, []).append(
                    f"{view.jurisdiction(j)}, {short_rule(head.rsplit(', Condition', 1)[0], 60)}"
                )
    if not found:
        return ""
    items = "".join(
        f"<dt>Condition {esc(letter)}</dt><dd>{esc(words[:1].upper() + words[1:])} "
        f'<span class="muted">({esc("; ".join(where))})</span></dd>'
        for letter, texts in sorted(found.items())
        for words, where in texts.items()
    )
    return f'<dl class="legend">{items}</dl>'


def _conditions(r: pd.Series) -> str:
    value = r.get("conditions")
    if is_missing(value) or not str(value).strip():
        return "none"
    letters = [c.strip() for c in str(value).split(",") if c.strip()]
    return ("Condition " if len(letters) == 1 else "Conditions ") + " and ".join(letters)


def panel_sites(view: StormwaterView) -> str:
    data, status = view.data, view.status
    if status.empty:
        s_html = no_data("sites", data.present.get("sites"), "construction sites")
    else:
        s_html = (
            _sites_missing_notes(data)
            + table(status, _site_cols(view), row_class=_site_row_class)
            + conditions_legend(view)
        )
    return section(
        "Sites by status",
        s_html,
        sid="sites",
        lead=esc(
            f"Status on {day_words(data.as_of)}: overdue = an inspection due and not made; late = made "
            "after its due date; other findings are disturbance, sediment, milestone-notice, certification "
            f"and report findings. Counts of all the findings on file (inspections due {view.period})."
        ),
    )


def _sites_missing_notes(data: StormwaterData) -> str:
    """What the sites table cannot say for want of the classification or the inspection findings."""
    notes = ""
    if data.classification is None or as_frame(data.classification).empty:
        notes += no_data(
            "site_classification", data.present.get("site_classification"), "which sites need inspections"
        )
    if data.findings is None:
        notes += no_data(
            "swppp_inspection_findings",
            data.present.get("swppp_inspection_findings"),
            "late and overdue inspections",
        )
    return notes


def _site_row_class(r: dict) -> str:
    """A site's row coloured by its status."""
    return {"overdue": "row-bad", "late": "row-warn", "in compliance": "row-good"}.get(r["status"], "")


def _site_cols(view: StormwaterView) -> list[Col]:
    """The columns of the sites table."""
    return [
        Col(
            "site_id",
            "Site",
            width="22%",
            html=lambda r: (
                named(r["site_id"], r.get("name"), f"#site-{slug(r['site_id'])}")
                + f"<br><small>{esc(view.jurisdiction(r.get('jurisdiction')))}</small>"
            ),
        ),
        Col("status", "Status", html=lambda r: badge(r["status"], STATUS_TONE.get(r["status"], ""))),
        Col("applicant", "Applicant"),
        Col("disturbed_acres", "Acres", num=True, fmt=lambda v: fmt_num(v, 1)),
        Col("conditions", "Conditions met", html=lambda r: esc(_conditions(r))),
        Col(
            "construction_start",
            "Active",
            nowrap=True,
            html=lambda r: (
                esc(f"starts {fmt_date(r.get('construction_start'))}")
                if not r.get("started", True)
                else esc(f"{fmt_date(r.get('construction_start'))} to ")
                + "<br>"
                + esc(fmt_date(r.get("final_stabilization")) or "still active")
            ),
        ),
        Col("inspections", "Inspections made", num=True),
        Col("last_inspection", "Last", fmt=fmt_date, nowrap=True),
        Col("late", "Made late", num=True),
        Col("overdue", "Not made", num=True),
        Col(
            "other_findings",
            "Other findings",
            num=True,
            title="disturbance, sediment, milestone notice, certification, report delivery",
        ),
        Col("notices", "Findings on notices", num=True),
    ]


def panel_missed(view: StormwaterView) -> str:
    """The inspections not made (overdue) and those made late: the two lists the page's cards count."""
    findings = view.findings
    if findings.empty:
        return ""
    rules = RuleNotes("rule-missed")
    cols = [
        view.site(),
        Col("requirement", "Inspection", fmt=lambda v: REQUIREMENT_WORDS.get(v, v)),
        Col("due_by", "Due by", fmt=fmt_date, nowrap=True),
        Col("satisfied_on", "Made on", fmt=fmt_date, nowrap=True),
        Col("days_late", "Days late", num=True, fmt=fmt_num),
        rules.col("rule", "Rule (section)", limit=40),
    ]
    parts = []
    for status, sid, title, tone in (
        ("overdue", "inspections-overdue", "Not made, overdue", "row-bad"),
        ("late", "inspections-late", "Made late", "row-warn"),
    ):
        rows = findings[findings["status"] == status].sort_values(
            ["due_by", "site_id"], ascending=[False, True]
        )
        listed = (
            table(
                rows,
                [c for c in cols if status == "late" or c.key != "satisfied_on"],
                row_class=lambda r, tone=tone: tone,
                whole=True,
            )
            if not rows.empty
            else none_note(view.data.judged, "inspections", "None.")
        )
        parts.append(f'<div id="{sid}"><h3>{esc(title)} ({len(rows)})</h3>{listed}</div>')
    parts.append(rules.notes())
    return section(
        "Inspections not made or made late",
        join(parts),
        sid="missed",
        lead=esc(
            f"Each inspection due {view.period} that was not made by {day_words(view.data.as_of)}, then "
            "each made after the day it was due, the latest due first."
        ),
    )


def panel_other(view: StormwaterView) -> str:
    other = view.other
    if other.empty:
        return (
            section("Other findings", no_data("swppp_other_findings", False), sid="other")
            if view.data.other is None
            else ""
        )
    rules = RuleNotes("rule-other")
    o_html = table(
        other.sort_values(["site_id", "trigger_date"]),
        [
            view.site(),
            Col("finding", "Finding", fmt=finding_words),
            Col(
                "status",
                "Status",
                html=lambda r: badge(
                    str(r["status"]).capitalize(), "bad" if r["status"] == "overdue" else "warn"
                ),
            ),
            Col("detail", "Detail"),
            Col("due_by", "Due by", fmt=fmt_date, nowrap=True),
            Col("days_late", "Days late", num=True),
            rules.col("rule", "Rule (section)", limit=40),
        ],
    )
    return section("Other findings", o_html + rules.notes(), sid="other")


def panel_notices(view: StormwaterView) -> str:
    data = view.data
    body = join(
        [
            '<div id="monthly-notices"><h3>Notices, one per site and month</h3>',
            notices_table(
                data.monthly_notices,
                "stormwater",
                "Site",
                view.names,
                data.notice_items,
                judged=data.judged,
                found=len(view.findings) + len(view.other),
            ),
            "</div>",
            '<h3 id="notice-follow-up">Each finding and its notice</h3>',
            stormwater_follow_up(data.follow_up, view.names, judged=data.judged),
        ]
    )
    periods = []
    for j, rules in sorted(data.rules.items()):
        penalty = (
            rules.penalties.stormwater.get(data.as_of)
            if rules.penalties and rules.penalties.stormwater
            else None
        )
        if penalty is not None:
            periods.append(f"each {penalty.per} in the {view.jurisdiction(j)}")
    counted = (
        f" Penalties count {' and '.join(periods)} that a violation continues after the day to correct."
        if periods
        else ""
    )
    record = f" The {data.municipality}'s record, not sent to the site."
    lead = (
        f"{law_cited(data.laws, 'stormwater')}: the notice of violation sets the time "
        "schedule of the remedial measures; it runs from the day the notice is mailed." + counted
        if data.judged.judged("stormwater_notices")
        else f"{data.judged.reason('stormwater_notices')}: the findings are listed, and no notice is drafted."
    )
    return section("Notices of violation and follow-up", body, sid="notices-section", lead=esc(lead + record))


def panel_illicit(view: StormwaterView) -> str:
    return illicit_section(view.data)


def panel_practices(view: StormwaterView) -> str:
    return practices_section(view)


def _site_head(view: StormwaterView, site: pd.Series, letters: str) -> str:
    sid = str(site["site_id"])
    facts = [esc(view.jurisdiction(site.get("jurisdiction")))]
    for label, key in (("address", "address"), ("applicant", "applicant"), ("rain gauge", "rain_gauge_id")):
        if not is_missing(site.get(key)):
            facts.append(f"{label} {esc(site.get(key))}")
    if not is_missing(site.get("disturbed_acres")):
        facts.append(f"{fmt_num(site.get('disturbed_acres'), 1)} acres disturbed")
    facts.append(esc(_conditions(site).replace("none", "no condition met")))
    reason = (
        f'<div class="facts">{esc(site.get("reason"))}</div>' if not is_missing(site.get("reason")) else ""
    )
    return (
        f'<div class="entity-head"><h2>{esc(sid)} · {esc(site.get("name") or "")}</h2>'
        f"{badge(site['status'], STATUS_TONE.get(site['status'], ''))}</div>"
        f'<div class="facts">{" · ".join(facts)}</div>{reason}{letters}'
    )


def _site_letters(view: StormwaterView, sid: str) -> str:
    """The site's monthly notices, each a link to its letter."""
    notices = as_frame(view.data.monthly_notices)
    if notices.empty:
        return ""
    mine = notices[(notices["kind"] == "stormwater") & (notices["recipient_id"] == sid)].sort_values("period")
    if mine.empty:
        return ""
    links = []
    for _, n in mine.iterrows():
        label = esc(f"{period_words(n['period'])} ({n['status']})")
        links.append(
            f'<a href="{esc(n["letter"])}">{label}</a>' if not is_missing(n.get("letter")) else label
        )
    return f'<div class="facts">Notices of violation ({len(links)}): {", ".join(links)}</div>'


def panel_sites_timelines(view: StormwaterView) -> str:
    data, status = view.data, view.status
    if status.empty:
        return section("Site timelines", no_data("sites", data.present.get("sites"), "construction sites"))
    insp_by_site = dict(tuple(view.insp.groupby("site_id"))) if not view.insp.empty else {}
    find_by_site = dict(tuple(view.findings.groupby("site_id"))) if not view.findings.empty else {}
    rain_by_gauge = dict(tuple(view.rain.groupby("gauge_key"))) if not view.rain.empty else {}
    toc = "".join(
        f'<a class="{"bad" if r["status"] in ("overdue", "late") else ""}" '
        f'href="#site-{esc(slug(r["site_id"]))}">'
        f"{esc(r['site_id'])}</a>"
        for _, r in status.iterrows()
    )
    unprinted = [str(s) for s, st in zip(status["site_id"], status["status"]) if st == "not required"]
    paper = "On paper, smaller, the timeline of each site that needs inspections" + (
        f"; the timelines of the {len(unprinted)} sites that need none ({', '.join(unprinted)}) are on "
        f"screen only."
        if unprinted
        else "."
    )
    parts = [
        section(
            "Site timelines",
            f'<div class="toc">{toc}</div>' + note(esc(paper), "info"),
            sid="timelines",
            lead="Each site: daily rain at its gauge with the storm threshold, the inspections made, and "
            "the inspections that were late or are overdue. Green band: the period the site needs "
            "inspections.",
        )
    ]
    empty = pd.DataFrame()
    for _, site in status.iterrows():
        sid = str(site["site_id"])
        gauge = site.get("rain_gauge_id")
        gkey = str(gauge).strip().lower() if not is_missing(gauge) else ""
        chart = site_chart(
            site,
            data,
            rain_by_gauge.get(gkey, empty),
            insp_by_site.get(sid, empty),
            find_by_site.get(sid, empty),
        )
        chart.printed = site["status"] != "not required"
        view.charts.append(chart)
        cls = "site" + ("" if chart.printed else " no-print")
        parts.append(
            f'<section id="site-{esc(slug(sid))}" class="{cls}">'
            f"{_site_head(view, site, _site_letters(view, sid))}{chart.html()}</section>"
        )
    return join(parts)


# The stormwater page, top to bottom: what to do, the counts, then the detail.
STORMWATER_PANELS = (
    panel_worklist,
    panel_headline,
    panel_upcoming,
    panel_sites,
    panel_missed,
    panel_other,
    panel_notices,
    panel_illicit,
    panel_practices,
    panel_sites_timelines,
)


def build_stormwater_page(data: StormwaterData) -> tuple[str, PageMeta]:
    view = stormwater_view(data)
    body = join(panel(view) for panel in STORMWATER_PANELS)
    findings = view.findings
    week, _later = view.week()
    meta = PageMeta(
        charts=len(view.charts),
        counts={
            "sites": len(view.status),
            "overdue": int((findings["status"] == "overdue").sum()) if not findings.empty else 0,
            "late": int((findings["status"] == "late").sum()) if not findings.empty else 0,
            "due_this_week": len(week),
            "illicit_cases": len(as_frame(data.illicit_cases)),
            "illicit_overdue": int(
                (as_frame(data.illicit_deadlines).get("status", pd.Series(dtype=object)) == "overdue").sum()
            ),
            "smp_findings": len(as_frame(data.smp_findings)),
        },
    )
    thresholds = ", ".join(
        f"{view.jurisdiction(j)}: {_threshold_words(v)}"
        for j in sorted(data.rules)
        if (v := _storm_rule(data, j, data.as_of)[1]) is not None
    )
    html_text = page(
        file="stormwater.html",
        title=f"{role_name(data.laws, 'stormwater_officer')}: construction sites",
        subtitle=esc(
            f"Construction site inspections ({law_cited(data.laws, 'stormwater')}) · as of "
            f"{day_words(data.as_of)}" + (f" · storm threshold {thresholds}" if thresholds else "")
        ),
        body=body,
        as_of=data.as_of,
        town=data.town,
        laws=data.laws,
        generated_at=data.generated_at,
        has_charts=bool(view.charts),
    )
    return html_text, meta


# --------------------------------------------------------------------------- contract 5.3 and 5.4

OBLIGATION_LABELS = {
    "notify_town": "Notice of the release to the municipality",
    "written_confirmation": "Written confirmation of a notice given in person or by phone",
    "appeal": "Notice of appeal received",
    "appeal_hearing": "Hearing on the appeal",
    "abatement": "Abatement or restoration",
    "cost_notice": "Notice of the cost of abatement to the owner",
    "protest": "Written protest of the cost",
}
SMP_LABELS = {
    "as_built": "As-built plans certified by a professional engineer",
    "maintenance_agreement": "Maintenance agreement recorded before final plan approval",
    "one_year_inspection": "Inspection one year after final acceptance",
    "guarantee_release": "Construction completion guarantee released too early",
}
# suspended: the abatement of an illicit discharge case while an appeal is pending (the illicit discharge law)
DEADLINE_TONE = {"overdue": "bad", "late": "warn", "open": "info", "suspended": "info", "met": "good"}
DEADLINE_WORDS = {
    "overdue": "Overdue",
    "late": "Late",
    "open": "Open",
    "suspended": "Suspended",
    "met": "Met",
}
DEADLINE_ORDER = {"overdue": 0, "open": 1, "suspended": 2, "late": 3, "met": 4}


def _status_badge(value: Any) -> str:
    return badge(DEADLINE_WORDS.get(str(value), str(value)), DEADLINE_TONE.get(str(value), ""))


def _case_letters(data: StormwaterData, case_id: Any) -> str:
    letters = as_frame(data.illicit_letters)
    if letters.empty:
        return ""
    links = []
    for _, letter in letters[letters["case_id"] == case_id].iterrows():
        label = {"notice_of_violation": "notice of violation", "cost_notice": "notice of the cost"}.get(
            str(letter["kind"]), str(letter["kind"]).replace("_", " ")
        )
        if bool(letter.get("draft")):
            label += " (draft)"
        href = data.letters.get(str(letter.get("letter_file") or ""))
        links.append(f'<a href="{esc(href)}">{esc(label)}</a>' if href else esc(label))
    return ", ".join(links)


def _cases(data: StormwaterData) -> pd.DataFrame:
    """Each case with its worst deadline (the one to act on first) and the balance owed."""
    c = as_frame(data.illicit_cases).copy()
    deadlines, charges = as_frame(data.illicit_deadlines), as_frame(data.illicit_charges)
    if not deadlines.empty:
        d = deadlines.assign(_o=deadlines["status"].map(DEADLINE_ORDER).fillna(9))
        worst = d.sort_values(["_o", "due"]).drop_duplicates("case_id").set_index("case_id")
        c["status"] = c["case_id"].map(worst["status"])
        c["next"] = c["case_id"].map(worst["obligation"])
        c["next_due"] = c["case_id"].map(worst["due"])
    else:
        c["status"] = c["next"] = c["next_due"] = None
    c["balance_usd"] = (
        c["case_id"].map(charges.set_index("case_id")["balance_usd"]) if not charges.empty else None
    )
    c["_o"] = c["status"].map(DEADLINE_ORDER).fillna(9)
    return c.sort_values(["_o", "discovered_on", "case_id"])


def _cases_table(data: StormwaterData) -> str:
    cases = as_frame(data.illicit_cases)
    if data.illicit_cases is None or cases.empty:
        return no_data(
            "illicit_discharges", data.present.get("illicit_discharges"), "illicit discharge cases"
        )
    return table(
        _cases(data),
        [
            Col("case_id", "Case", nowrap=True),
            Col("premises", "Premises"),
            Col("discovered_on", "Discovered", fmt=fmt_date, nowrap=True),
            Col("description", "What was found"),
            Col(
                "status",
                "Worst deadline",
                html=lambda r: (
                    _status_badge(r["status"])
                    if not is_missing(r["status"])
                    else (
                        '<a href="quarantine.html">not judged: see the quarantined rows</a>'
                        if str(r["case_id"]) in data.illicit_set_aside
                        else esc("no deadline yet")
                    )
                ),
            ),
            Col(
                "next",
                "Of",
                html=lambda r: (
                    esc(OBLIGATION_LABELS.get(r["next"], r["next"]))
                    + (
                        f"<br><small>due {esc(fmt_date(r['next_due']))}</small>"
                        if not is_missing(r["next_due"])
                        else ""
                    )
                ),
            ),
            Col("balance_usd", "Balance owed", num=True, fmt=fmt_usd),
            Col("case_id", "Letters", html=lambda r: _case_letters(data, r["case_id"])),
        ],
        row_class=lambda r: {"overdue": "row-bad", "late": "row-warn"}.get(str(r["status"]), ""),
    )


def illicit_section(data: StormwaterData) -> str:
    """Illicit discharge cases, their deadlines and charges (the illicit discharge law); where the rules state
    none, why not (contract 8.6)."""
    if not data.judged.judged("illicit"):
        return section(
            "Illicit discharges to the storm drain system",
            none_note(data.judged, "illicit", "No illicit discharge case is on file."),
            sid="illicit",
        )
    deadlines, charges = as_frame(data.illicit_deadlines), as_frame(data.illicit_charges)
    rules = RuleNotes("rule-illicit")
    parts = [_cases_table(data)]
    overdue = overdue_deadlines(deadlines)
    if not overdue.empty:
        parts.append(
            f'<div id="illicit-overdue"><h3>Deadlines overdue ({len(overdue)})</h3>'
            + _deadlines_table(overdue, rules)
            + "</div>"
        )
    rest = deadlines.drop(index=overdue.index) if not deadlines.empty else deadlines
    if not rest.empty:
        parts.append("<h3>The other deadlines of the cases</h3>" + _deadlines_table(rest, rules))
    if not charges.empty:
        parts.append(
            f"<h3>Cost of abatement by the {esc(data.municipality)}, payments and interest</h3>"
            + _charges_table(charges, rules)
        )
    parts.append(rules.notes())
    return section(
        "Illicit discharges to the storm drain system",
        join(parts),
        sid="illicit",
        lead=esc(
            f"{law_cited(data.laws, 'illicit_discharges')}: each case with its worst deadline first; the "
            "deadlines that were met are listed too. Business days leave out weekends and the public holidays"
            + (f" of {data.holiday_law}" if data.holiday_law else "")
            + "; "
            + (
                "a period to appeal, abate or protest that ends on a weekend or holiday ends on the next "
                f"business day ({data.deadline_law}). "
                if data.deadline_law
                else ""
            )
            + "While an appeal received in time is pending the abatement is suspended; the penalty is not. "
            "An appeal received late is no appeal: nothing is suspended and no hearing is held on it."
        ),
    )


def _deadlines_table(deadlines: pd.DataFrame, rules: RuleNotes) -> str:
    """The deadlines of the illicit discharge cases, the worst first."""
    d = deadlines.assign(_o=deadlines["status"].map(DEADLINE_ORDER).fillna(9))
    return table(
        d.sort_values(["_o", "due", "case_id"]),
        [
            Col("case_id", "Case", nowrap=True),
            Col("obligation", "Obligation", fmt=lambda v: OBLIGATION_LABELS.get(v, v)),
            Col(
                "due",
                "Due",
                html=lambda r: (
                    esc("none while the appeal is pending")
                    if str(r["status"]) == "suspended"
                    else esc(fmt_date(r["due"]))
                ),
                nowrap=True,
            ),
            Col("status", "Status", html=lambda r: _status_badge(r["status"])),
            Col("satisfied_on", "Done on", fmt=fmt_date, nowrap=True),
            Col("days_late", "Days late", num=True, fmt=fmt_num),
            rules.col("rule", "Rule (section)", limit=45),
        ],
        row_class=lambda r: {"overdue": "row-bad", "late": "row-warn"}.get(str(r["status"]), ""),
    )


def _charges_table(charges: pd.DataFrame, rules: RuleNotes) -> str:
    """The cost of abatement charged to each case, its payments, interest and balance."""
    return table(
        charges,
        [
            Col("case_id", "Case", nowrap=True),
            Col("principal_usd", "Cost", num=True, fmt=fmt_usd),
            Col(
                "installment_usd",
                "Payments",
                html=lambda r: esc(
                    f"{int(r['installments']) - 1} x {fmt_usd(r['installment_usd'])} + "
                    f"{fmt_usd(r['last_installment_usd'])}"
                ),
            ),
            Col("interest_from", "Interest from", fmt=fmt_date, nowrap=True),
            Col("interest_usd", "Interest to date", num=True, fmt=fmt_usd),
            Col("paid_usd", "Paid", num=True, fmt=fmt_usd),
            Col("balance_usd", "Balance", num=True, fmt=fmt_usd),
            Col(
                "max_penalty_usd",
                "Largest criminal penalty",
                num=True,
                fmt=fmt_usd,
                title="for each day from discovery through abatement, the days an appeal was pending "
                "included (none after the notice of violation when the appeal vacated it)",
            ),
            rules.col("rule", "Rule (section)", limit=45),
        ],
    )


def practice_due(r: dict) -> str:
    """The due day in words; an early release of a guarantee has happened: its day is the earliest the law
    allowed it, not a deadline."""
    if r.get("finding") == "guarantee_release" and not is_missing(r.get("due")):
        return f"released early; could not be released before {day_words(r['due'])}"
    return fmt_date(r.get("due"))


def practice_status(r: dict) -> str:
    if r.get("finding") == "guarantee_release":
        return badge("Released too early", "bad")
    return _status_badge(r["status"])


def practices_section(view: StormwaterView) -> str:
    data = view.data
    findings = as_frame(data.smp_findings)
    rules = RuleNotes("rule-practices")
    if not data.judged.judged("practices"):
        p_html = none_note(data.judged, "practices", "No finding on a permanent practice.")
    elif data.smp_findings is None or findings.empty:
        p_html = no_data(
            "smp_findings",
            data.present.get("smp_findings"),
            "findings on permanent stormwater management practices",
        )
    else:
        f = findings.assign(_o=findings["status"].map(DEADLINE_ORDER).fillna(9))
        p_html = (
            table(
                f.sort_values(["_o", "site_id", "practice_id", "due"]),
                _practice_cols(view, rules),
                row_class=lambda r: {"overdue": "row-bad", "late": "row-warn"}.get(str(r["status"]), ""),
            )
            + rules.notes()
        )
    return section(
        "Permanent stormwater management practices",
        p_html,
        sid="practices",
        lead="After construction: as-built plans, the maintenance agreement, the one-year inspection "
        f"and the construction completion guarantee ({esc(law_cited(data.laws, 'stormwater'))}). "
        "Requirements met on time are not listed.",
    )


def _practice_site_cell(view: StormwaterView, r: dict) -> str:
    """A practice's site: its id (a link to its section) and name, its town on a second line."""
    town = (
        f"<br><small>{esc(view.jurisdiction(r.get('jurisdiction')))}</small>"
        if not is_missing(r.get("jurisdiction"))
        else ""
    )
    return named(r["site_id"], short_name(view.names.get(r["site_id"])), f"#site-{slug(r['site_id'])}") + town


def _practice_cell(r: dict) -> str:
    """A practice's id, its type on a second line."""
    kind = (
        f"<br><small>{esc(r.get('practice_type'))}</small>" if not is_missing(r.get("practice_type")) else ""
    )
    return esc(r["practice_id"]) + kind


def _practice_cols(view: StormwaterView, rules: RuleNotes) -> list[Col]:
    """The columns of the findings on permanent practices."""
    return [
        Col("site_id", "Site", width="22%", html=lambda r: _practice_site_cell(view, r)),
        Col("practice_id", "Practice", html=_practice_cell),
        Col("finding", "Requirement", fmt=lambda v: SMP_LABELS.get(v, v)),
        Col("due", "Due", html=lambda r: esc(practice_due(r))),
        Col("status", "Status", html=practice_status),
        rules.col("rule", "Rule (section)", limit=45),
    ]
