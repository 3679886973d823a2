"""The sewer page, top to bottom: its panels in order and the page built from them."""

from __future__ import annotations

from dashboards.html import (
    PageMeta,
    day_words,
    esc,
    join,
    law_cited,
    page_of,
    role_name,
)
from dashboards.sewer.cards import panel_headline, panel_heatmap, panel_summary, panel_worklist
from dashboards.sewer.data import SewerData
from dashboards.sewer.permits import panel_notices, panel_permits, panel_snc, panel_testing
from dashboards.sewer.users import _user_ids, panel_users
from dashboards.sewer.view import sewer_view
from dashboards.sewer.violations import panel_slugs, panel_violations

SEWER_PANELS = (
    panel_worklist,
    panel_headline,
    panel_summary,
    panel_heatmap,
    panel_violations,
    panel_slugs,
    panel_snc,
    panel_permits,
    panel_notices,
    panel_testing,
    panel_users,
)


def build_sewer_page(data: SewerData) -> tuple[str, PageMeta]:
    view = sewer_view(data)
    body = join(panel(view) for panel in SEWER_PANELS)
    meta = PageMeta(
        charts=len(view.charts),
        counts={"users": len(_user_ids(view)), "violations": len(view.violations), "slugs": len(view.slugs)},
    )
    rng = f" · samples collected {view.period}" if view.first is not None else ""
    html_text = page_of(
        data,
        file="sewer.html",
        title=f"{role_name(data.laws, 'superintendent')}: industrial users",
        subtitle=esc(
            f"{law_cited(data.laws, 'sewer_use')} discharge limits and slugs · as of "
            f"{day_words(data.as_of)}{rng}"
        ),
        body=body,
        has_charts=bool(view.charts),
    )
    return html_text, meta
