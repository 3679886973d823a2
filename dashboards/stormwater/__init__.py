"""The stormwater officer's page: the week's upcoming inspections, sites by
status, and per site a timeline of inspections against daily rainfall with the
storm threshold (from the rules) and the late and overdue findings.

Pure: ``build_stormwater_page(StormwaterData) -> (html, PageMeta)``.
"""

from __future__ import annotations

from dashboards.stormwater.cards import (
    panel_headline,
    panel_worklist,
)
from dashboards.stormwater.chart import (
    TIMELINE_ROWS,
    site_chart,
)
from dashboards.stormwater.data import KIND_SYMBOL, STATUS_ORDER, STATUS_TONE, StormwaterData
from dashboards.stormwater.illicit import (
    DEADLINE_ORDER,
    DEADLINE_TONE,
    DEADLINE_WORDS,
    OBLIGATION_LABELS,
    SMP_LABELS,
    TOWN_ACTS,
    illicit_section,
    overdue_deadlines,
)
from dashboards.stormwater.inspections import (
    conditions_legend,
    panel_illicit,
    panel_missed,
    panel_notices,
    panel_other,
    panel_practices,
    panel_sites,
    panel_upcoming,
)
from dashboards.stormwater.page import STORMWATER_PANELS, build_stormwater_page
from dashboards.stormwater.practices import (
    practice_due,
    practice_status,
    practices_section,
)
from dashboards.stormwater.sites import (
    site_status,
)
from dashboards.stormwater.timelines import panel_sites_timelines
from dashboards.stormwater.view import REQUIREMENT_WORDS, UPCOMING_WORDS, StormwaterView, stormwater_view

__all__ = [
    "DEADLINE_ORDER",
    "DEADLINE_TONE",
    "DEADLINE_WORDS",
    "KIND_SYMBOL",
    "OBLIGATION_LABELS",
    "REQUIREMENT_WORDS",
    "SMP_LABELS",
    "STATUS_ORDER",
    "STATUS_TONE",
    "STORMWATER_PANELS",
    "StormwaterData",
    "StormwaterView",
    "TIMELINE_ROWS",
    "TOWN_ACTS",
    "UPCOMING_WORDS",
    "build_stormwater_page",
    "conditions_legend",
    "illicit_section",
    "overdue_deadlines",
    "panel_headline",
    "panel_illicit",
    "panel_missed",
    "panel_notices",
    "panel_other",
    "panel_practices",
    "panel_sites",
    "panel_sites_timelines",
    "panel_upcoming",
    "panel_worklist",
    "practice_due",
    "practice_status",
    "practices_section",
    "site_chart",
    "site_status",
    "stormwater_view",
]
