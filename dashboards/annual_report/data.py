"""The annual pretreatment report's data (``AnnualReportData``), its words and its view (``ReportView``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pandas as pd

from dashboards.html import (
    Col,
    PageData,
    esc,
    fmt_date,
    is_missing,
)
from outfall.vocab import parameter_short
from outfall.words import month_day_words

CRITERIA = {
    "chronic": "Chronic violations",
    "trc": "Technical review criteria violations",
    "late_report": "Reports submitted late",
}
BASES = {"sample": "single samples", "daily_max": "daily maximums", "monthly_avg": "monthly averages"}
STATISTICS = {"daily_max": "Daily maximum", "monthly_avg": "Monthly average"}
LIMIT_TYPES = {"max": "max", "min": "min"}


def parameter_words(value) -> str:
    return "" if is_missing(value) else parameter_short(value)


def year_words(year: int, as_of: dt.date) -> str:
    """'calendar year 2025'; the year not ended: 'calendar year 2026 (January 1 to November 30)'."""
    if as_of >= dt.date(year, 12, 31):
        return f"calendar year {year}"
    return f"calendar year {year} (January 1 to {month_day_words(as_of)})"


def report_file(year: int) -> str:
    return f"pretreatment_report_{int(year)}.html"


@dataclass
class AnnualReportData(PageData):
    """One year's report. Frames are ``None`` when their table does not exist yet.

    users: select_report_users; violations: select_report_violations; statistics:
    select_report_statistic_violations; snc: select_report_snc; notices: select_report_notices;
    slugs: select_report_slugs."""

    year: int
    authority: str = ""  # who reports: the Control Authority's name
    users: pd.DataFrame | None = None
    violations: pd.DataFrame | None = None
    statistics: pd.DataFrame | None = None
    snc: pd.DataFrame | None = None
    notices: pd.DataFrame | None = None
    slugs: pd.DataFrame | None = None


def _name(users: pd.DataFrame):
    names = dict(zip(users["user_id"], users["name"])) if not users.empty and "name" in users else {}

    def cell(r: pd.Series) -> str:
        name = names.get(r["user_id"])
        return esc(r["user_id"]) + (f"<br><small>{esc(name)}</small>" if not is_missing(name) else "")

    return cell


def _count_of(r: pd.Series) -> str:
    what = BASES.get(str(r.get("basis")), "reports") if r.get("criterion") != "late_report" else "reports due"
    return f"{int(r['count'])} of {int(r['measurements'])} {what} ({float(r['pct']):.0f}%)"


def _term(r: pd.Series) -> str:
    """The terms of the user's permits in force during the year (``permit_terms``: each permit's, a renewal
    being a permit of its own, contract 8.2), else the one term of ``permit_effective`` and
    ``permit_expires``."""
    terms = r.get("permit_terms")
    if not is_missing(terms) and str(terms):
        return str(terms)
    start, end = r.get("permit_effective"), r.get("permit_expires")
    if is_missing(start) and is_missing(end):
        return "not on file"
    return f"{fmt_date(start) or '…'} to {fmt_date(end) or '…'}"


@dataclass
class ReportView:
    """What the report's panels share: its frames, the users' name cells and the period in words."""

    data: AnnualReportData
    users: pd.DataFrame
    violations: pd.DataFrame
    statistics: pd.DataFrame
    snc: pd.DataFrame
    notices: pd.DataFrame
    slugs: pd.DataFrame

    @property
    def when(self) -> str:
        return year_words(self.data.year, self.data.as_of)

    def user(self) -> Col:
        return Col("user_id", "User", html=_name(self.users), width="18%")
