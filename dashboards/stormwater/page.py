"""The stormwater page, top to bottom: its panels in order and the page built from them."""

from __future__ import annotations

import pandas as pd

from dashboards.html import (
    PageMeta,
    as_frame,
    day_words,
    esc,
    join,
    law_cited,
    page_of,
    role_name,
)
from dashboards.stormwater.cards import panel_headline, panel_worklist
from dashboards.stormwater.data import StormwaterData
from dashboards.stormwater.inspections import (
    panel_illicit,
    panel_missed,
    panel_notices,
    panel_other,
    panel_practices,
    panel_sites,
    panel_upcoming,
)
from dashboards.stormwater.sites import _storm_rule, _threshold_words
from dashboards.stormwater.timelines import panel_sites_timelines
from dashboards.stormwater.view import stormwater_view

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
    html_text = page_of(
        data,
        file="stormwater.html",
        title=f"{role_name(data.laws, 'stormwater_officer')}: construction sites",
        subtitle=esc(
            f"Construction site inspections ({law_cited(data.laws, 'stormwater')}) · as of "
            f"{day_words(data.as_of)}" + (f" · storm threshold {thresholds}" if thresholds else "")
        ),
        body=body,
        has_charts=bool(view.charts),
    )
    return html_text, meta
