"""The annual pretreatment report of one calendar year, printable, for the approval authority
(40 CFR 403.12(i)): the industrial users with their sampling and violations, the list of users in
significant noncompliance, the notices of violation mailed, and the slug discharges, every row.

Pure: ``build_annual_report_page(AnnualReportData) -> (html, PageMeta)``; the file is
``pretreatment_report_<year>.html`` (:func:`report_file`), written beside the other pages by
``assets/sewer/page.py`` and linked from the index page.
"""

from __future__ import annotations

from dashboards.annual_report.data import (
    BASES,
    CRITERIA,
    LIMIT_TYPES,
    STATISTICS,
    AnnualReportData,
    ReportView,
    parameter_words,
    report_file,
    year_words,
)
from dashboards.annual_report.page import REPORT_PANELS, build_annual_report_page
from dashboards.annual_report.panels import (
    panel_headline,
    panel_not_contained,
    panel_notices,
    panel_slugs,
    panel_snc,
    panel_users,
    panel_violations,
)

__all__ = [
    "AnnualReportData",
    "BASES",
    "CRITERIA",
    "LIMIT_TYPES",
    "REPORT_PANELS",
    "ReportView",
    "STATISTICS",
    "build_annual_report_page",
    "panel_headline",
    "panel_not_contained",
    "panel_notices",
    "panel_slugs",
    "panel_snc",
    "panel_users",
    "panel_violations",
    "parameter_words",
    "report_file",
    "year_words",
]
