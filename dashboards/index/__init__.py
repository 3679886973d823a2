"""The index page (links to every page, the as-of date, the data's date range
and the rows quarantined per dataset) and the quarantine list page, so that
bad data is seen, not hidden.

Pure: ``build_index_page(IndexData)`` and ``build_quarantine_page(IndexData)``.
"""

from __future__ import annotations

from dashboards.index.data import IndexData, PageCard
from dashboards.index.overview import (
    INDEX_PANELS,
    build_index_page,
    panel_after_as_of,
    panel_cards,
    panel_data,
    panel_failures,
    panel_reasons,
    panel_reports,
    panel_run,
    panel_worklist,
)
from dashboards.index.quarantine import (
    ALL_ROWS_WHERE,
    QUARANTINE_PANELS,
    build_quarantine_page,
    left_blank_line,
    panel_not_judged,
    panel_quarantined,
    panel_quarantined_rows,
    panel_set_aside,
    received_table,
    received_values,
)

__all__ = [
    "ALL_ROWS_WHERE",
    "INDEX_PANELS",
    "IndexData",
    "PageCard",
    "QUARANTINE_PANELS",
    "build_index_page",
    "build_quarantine_page",
    "left_blank_line",
    "panel_after_as_of",
    "panel_cards",
    "panel_data",
    "panel_failures",
    "panel_not_judged",
    "panel_quarantined",
    "panel_quarantined_rows",
    "panel_reasons",
    "panel_reports",
    "panel_run",
    "panel_set_aside",
    "panel_worklist",
    "received_table",
    "received_values",
]
