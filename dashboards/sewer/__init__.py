"""The sewer administrator's page: per industrial user, control charts of
every limited parameter (limit drawn and labelled with its section, violations
marked, non-detects as open markers at the detection value), the flow trace
with slug events and the baseline, a heat map of violations by user and month,
the compliance summary with permits expiring soon, and a calendar of the testing
required of each user (``dashboards.testing``).

Pure: ``build_sewer_page(SewerData) -> (html, PageMeta)``.
"""

from __future__ import annotations

from dashboards.sewer.cards import (
    panel_headline,
    panel_heatmap,
    panel_summary,
    panel_worklist,
)
from dashboards.sewer.data import SewerData
from dashboards.sewer.page import SEWER_PANELS, build_sewer_page
from dashboards.sewer.permits import (
    PERMIT_FINDING_LABELS,
    panel_notices,
    panel_permits,
    panel_snc,
    panel_testing,
    permit_parts,
    permit_spells,
)
from dashboards.sewer.summary import (
    flow_chart,
    heatmap_chart,
    monthly_violations,
    user_summary,
)
from dashboards.sewer.users import (
    UserChartInputs,
    panel_users,
    user_chart_inputs,
    user_section,
    users_with_findings,
    users_without_findings,
    year_to_date_users,
)
from dashboards.sewer.view import (
    CRITERION_WORDS,
    SNC_BASIS_LABELS,
    STATISTIC_WORDS,
    SewerView,
    sewer_view,
    when_collected,
)
from dashboards.sewer.violations import (
    OTHER_ITEM_DUTIES,
    OTHER_ITEM_WORDS,
    inconclusive_table,
    notice_words,
    other_items_table,
    panel_slugs,
    panel_violations,
    statistics_table,
    violations_table,
)

__all__ = [
    "CRITERION_WORDS",
    "OTHER_ITEM_DUTIES",
    "OTHER_ITEM_WORDS",
    "PERMIT_FINDING_LABELS",
    "SEWER_PANELS",
    "SNC_BASIS_LABELS",
    "STATISTIC_WORDS",
    "SewerData",
    "SewerView",
    "UserChartInputs",
    "build_sewer_page",
    "flow_chart",
    "heatmap_chart",
    "inconclusive_table",
    "monthly_violations",
    "notice_words",
    "other_items_table",
    "panel_headline",
    "panel_heatmap",
    "panel_notices",
    "panel_permits",
    "panel_slugs",
    "panel_snc",
    "panel_summary",
    "panel_testing",
    "panel_users",
    "panel_violations",
    "panel_worklist",
    "permit_parts",
    "permit_spells",
    "sewer_view",
    "statistics_table",
    "user_chart_inputs",
    "user_section",
    "user_summary",
    "users_with_findings",
    "users_without_findings",
    "violations_table",
    "when_collected",
    "year_to_date_users",
]
