"""The annual pretreatment report, top to bottom: its panels in order and the page built from them."""

from __future__ import annotations

from dashboards.annual_report.data import AnnualReportData, ReportView, report_file
from dashboards.annual_report.panels import (
    panel_headline,
    panel_not_contained,
    panel_notices,
    panel_slugs,
    panel_snc,
    panel_users,
    panel_violations,
)
from dashboards.html import (
    PageMeta,
    day_words,
    esc,
    frames,
    join,
    page_of,
)

REPORT_PANELS = (
    panel_headline,
    panel_users,
    panel_violations,
    panel_snc,
    panel_notices,
    panel_slugs,
    panel_not_contained,
)


def build_annual_report_page(data: AnnualReportData) -> tuple[str, PageMeta]:
    view = ReportView(data, *frames(data, "users", "violations", "statistics", "snc", "notices", "slugs"))
    body = join(panel(view) for panel in REPORT_PANELS)
    in_snc = sorted(set(view.snc["user_id"])) if not view.snc.empty else []
    meta = PageMeta(
        counts={
            "users": len(view.users),
            "violations": len(view.violations),
            "statistic_violations": len(view.statistics),
            "snc_users": len(in_snc),
            "notices": len(view.notices),
            "slugs": len(view.slugs),
        }
    )
    who = f"{data.authority} · " if data.authority else ""
    html_text = page_of(
        data,
        file=report_file(data.year),
        title=f"Annual pretreatment report {data.year}",
        subtitle=esc(
            f"{who}report to the approval authority under 40 CFR 403.12(i) · calendar year "
            f"{data.year} · as of {day_words(data.as_of)}"
        ),
        body=body,
        has_charts=False,
    )
    return html_text, meta
