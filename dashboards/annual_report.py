"""The annual pretreatment report of one calendar year, printable, for the approval authority
(40 CFR 403.12(i)): the industrial users with their sampling and violations, the list of users in
significant noncompliance, the notices of violation mailed, and the slug discharges, every row.

Pure: ``build_annual_report_page(AnnualReportData) -> (html, PageMeta)``; the file is
``pretreatment_report_<year>.html`` (:func:`report_file`), written beside the other pages by
``assets/sewer_administrator/page.py`` and linked from the index page.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pandas as pd

from dashboards.html import (
    Col,
    Kpi,
    PageData,
    PageMeta,
    RuleNotes,
    badge,
    day_words,
    esc,
    fmt_date,
    fmt_measure,
    fmt_num,
    frames,
    is_missing,
    join,
    judged_kpi,
    kpis,
    month_words,
    no_data,
    none_note,
    note,
    noun,
    page,
    section,
    slug_columns,
    table,
)
from dashboards.notices import period_words
from outfall.rules.judged import Judged

CRITERIA = {
    "chronic": "Chronic violations",
    "trc": "Technical review criteria violations",
    "late_report": "Reports submitted late",
}
BASES = {"sample": "single samples", "daily_max": "daily maximums", "monthly_avg": "monthly averages"}
STATISTICS = {"daily_max": "Daily maximum", "monthly_avg": "Monthly average"}
LIMIT_TYPES = {"max": "max", "min": "min"}
PARAMETERS = {"chlorine_demand": "chlorine demand"}


def parameter_words(value) -> str:
    return "" if is_missing(value) else PARAMETERS.get(str(value), str(value))


def year_words(year: int, as_of: dt.date) -> str:
    """'calendar year 2025'; the year not ended: 'calendar year 2026 (January 1 to November 30)'."""
    if as_of >= dt.date(year, 12, 31):
        return f"calendar year {year}"
    return f"calendar year {year} (January 1 to {as_of:%B} {as_of.day})"


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


def panel_headline(view: ReportView) -> str:
    cards = kpis(_headline_cards(view))
    if view.data.as_of < dt.date(view.data.year, 12, 31):
        d = view.data.as_of
        cards = (
            note(
                esc(
                    f"The year {view.data.year} has not ended: this report covers what is on file through "
                    f"{d:%B} {d.day}, {d.year}."
                ),
                "warn",
            )
            + cards
        )
    return cards


def _of(judged: Judged, duty: str):
    """A count of a user's: "not judged" in place of a 0 (or a blank) the rules do not judge."""
    return lambda v: fmt_num(v) if judged.judged(duty) or (not is_missing(v) and v) else "not judged"


def _snc_cell(judged: Judged, r: dict) -> str:
    if not is_missing(r.get("snc")) and bool(r["snc"]):
        return badge("yes", "bad")
    return "no" if judged.judged("snc") else "not judged"


def _headline_cards(view: ReportView) -> list[Kpi]:
    """The report's counts, each linked to the list of this report it is the length of; a 0 the rules do
    not judge reads "not judged" (contract 8.6)."""
    users, when, judged = view.users, view.when, view.data.judged
    single = int(users["violations"].sum()) if not users.empty else 0
    stats = int(users["statistic_violations"].sum()) if not users.empty else 0
    in_snc = view.snc["user_id"].nunique() if not view.snc.empty else 0
    samples = int(users["samples"].sum()) if not users.empty else 0
    return [
        Kpi(
            f"industrial users, {when}",
            fmt_num(len(users)),
            f"with samples, flow readings or notices in the year; {fmt_num(samples)} "
            f"{noun(samples, 'sample')} collected",
            "",
            "#users",
        ),
        judged_kpi(
            judged,
            "limits",
            Kpi(
                f"{noun(single + stats, 'limit')} broken, {when}",
                fmt_num(single + stats),
                f"{single} single samples, {stats} daily maximums or monthly averages (a sample by the "
                "day it was collected, an average by its first day)",
                "bad" if single + stats else "good",
                "#violations",
            ),
        ),
        judged_kpi(
            judged,
            "snc",
            Kpi(
                f"{noun(len(view.snc), 'finding')} of significant noncompliance, {when}",
                fmt_num(len(view.snc)),
                f"{in_snc} {noun(in_snc, 'user')}, each six-month period judged on its own",
                "bad" if in_snc else "good",
                "#snc",
            ),
        ),
        judged_kpi(
            judged,
            "sewer_notices",
            Kpi(
                f"notices of violation mailed, {when}",
                fmt_num(len(view.notices)),
                "sewer notices, by the day mailed",
                "",
                "#notices",
            ),
        ),
    ]


def panel_users(view: ReportView) -> str:
    data, users = view.data, view.users
    judged = data.judged
    if users.empty:
        u_html = no_data(
            "pretreatment_annual_report",
            data.present.get("pretreatment_annual_report"),
            "industrial users with samples, flow readings or notices in the year",
        )
    else:
        u_html = table(
            users,
            [
                view.user(),
                Col("address", "Address", width="12%"),
                Col("permit_no", "Permit", nowrap=True),
                Col("permit_effective", "Permit term", nowrap=True, html=lambda r: esc(_term(r))),
                Col("samples", "Samples", num=True, fmt=fmt_num),
                Col("violations", "Sample violations", num=True, fmt=_of(judged, "limits")),
                Col(
                    "statistic_violations",
                    "Average and daily maximum violations",
                    num=True,
                    fmt=_of(judged, "limits"),
                ),
                Col("slugs", "Slug discharges", num=True, fmt=_of(judged, "slugs")),
                Col(
                    "days_without_permit",
                    "Days discharging without a permit",
                    num=True,
                    fmt=_of(judged, "permits"),
                ),
                Col("snc", "Significant noncompliance", html=lambda r: _snc_cell(judged, r)),
                Col("notices_mailed", "Notices mailed", num=True, fmt=_of(judged, "sewer_notices")),
            ],
            row_class=lambda r: "row-bad" if not is_missing(r["snc"]) and bool(r["snc"]) else "",
        )
        unjudged = judged.reasons(("limits", "slugs", "permits", "snc", "sewer_notices"))
        if unjudged:
            u_html += note(esc(unjudged[:1].upper() + unjudged[1:] + "."), "warn")
    return section(
        f"1. Industrial users and their compliance, {view.when}",
        u_html,
        sid="users",
        lead="Every industrial user with a sample collected, a flow reading or a notice of violation "
        "mailed in the year: its sampling, the violations found and the enforcement taken.",
    )


def panel_violations(view: ReportView) -> str:
    rules = RuleNotes("rule-report")
    parts = [_sample_violations(view, rules), _statistic_violations(view, rules)]
    return section(f"2. Violations, {view.when}", join(parts) + rules.notes(), sid="violations")


def _sample_violations(view: ReportView, rules: RuleNotes) -> str:
    """The table of single samples that broke their limit (section 2)."""
    data = view.data
    if data.violations is None:
        return no_data(
            "discharge_violations",
            data.present.get("discharge_violations"),
            "violations of single samples",
        )
    head = "<h3>Single samples above (or below) their limit</h3>"
    if view.violations.empty:
        return head + none_note(data.judged, "limits", "No sample broke its limit in the year.")
    return head + table(
        view.violations,
        [
            view.user(),
            Col("collected_on", "Collected", fmt=fmt_date, nowrap=True),
            Col("sample_id", "Sample"),
            Col("parameter", "Parameter", fmt=parameter_words),
            Col(
                "value",
                "Result",
                num=True,
                html=lambda r: esc(fmt_measure(r["value"], r["unit"], exact=True)),
            ),
            Col(
                "limit_value",
                "Limit",
                num=True,
                html=lambda r: esc(
                    f"{LIMIT_TYPES.get(r['limit_type'], r['limit_type'] or '')} "
                    f"{fmt_measure(r['limit_value'], r['unit'], exact=True)}".strip()
                ),
            ),
            rules.col("rule", "Section", limit=40),
        ],
        empty="No sample broke its limit in the year.",
    )


def _statistic_violations(view: ReportView, rules: RuleNotes) -> str:
    """The table of daily maximums and monthly averages that broke their limit (section 2)."""
    data = view.data
    if data.statistics is None:
        return no_data(
            "statistic_violations",
            data.present.get("statistic_violations"),
            "violations of daily maximum and monthly average limits",
        )
    head = "<h3>Daily maximums and monthly averages above their limit</h3>"
    if view.statistics.empty:
        return head + none_note(
            data.judged, "limits", "No daily maximum or monthly average broke its limit in the year."
        )
    return head + table(
        view.statistics,
        [
            view.user(),
            Col("statistic", "Statistic", fmt=lambda v: STATISTICS.get(v, v)),
            Col(
                "period_start",
                "Period",
                html=lambda r: esc(
                    fmt_date(r["period_start"])
                    if r["statistic"] == "daily_max"
                    else month_words(r["period_start"])
                ),
                nowrap=True,
            ),
            Col("parameter", "Parameter", fmt=parameter_words),
            Col("value", "Value", num=True, html=lambda r: esc(fmt_measure(r["value"], r["unit"]))),
            Col(
                "limit_value",
                "Limit",
                num=True,
                html=lambda r: esc(fmt_measure(r["limit_value"], r["unit"], exact=True)),
            ),
            rules.col("rule", "Limit from", limit=40),
        ],
        empty="No daily maximum or monthly average broke its limit in the year.",
    )


def panel_snc(view: ReportView) -> str:
    data = view.data
    rules = RuleNotes("rule-report-snc")
    lead = (
        "40 CFR 403.8(f)(2)(viii), per six-month period. Single samples, daily maximums and "
        "monthly averages are each judged on their own."
    )
    if data.snc is None:
        s_html = no_data(
            "snc_determinations", data.present.get("snc_determinations"), "significant noncompliance"
        )
    elif view.snc.empty:
        s_html = none_note(
            data.judged, "snc", "No industrial user was in significant noncompliance in the year."
        )
        lead = lead if data.judged.judged("snc") else ""
    else:
        s_html = (
            table(
                view.snc,
                [
                    view.user(),
                    Col(
                        "period_start",
                        "Six months",
                        html=lambda r: esc(f"{fmt_date(r['period_start'])} to {fmt_date(r['period_end'])}"),
                        nowrap=True,
                    ),
                    Col("criterion", "Criterion", fmt=lambda v: CRITERIA.get(v, v)),
                    Col("parameter", "Parameter", fmt=parameter_words),
                    Col("count", "How many", html=lambda r: esc(_count_of(r))),
                    rules.col("rule", "Rule", limit=26),
                ],
                empty="No industrial user was in significant noncompliance in the year.",
            )
            + rules.notes()
        )
    return section(
        f"3. Industrial users in significant noncompliance, {view.when}",
        s_html,
        sid="snc",
        lead=lead,
    )


def panel_notices(view: ReportView) -> str:
    data = view.data
    if data.notices is None:
        n_html = no_data("notices", data.present.get("notices"), "notices of violation mailed")
    elif view.notices.empty:
        n_html = none_note(
            data.judged, "sewer_notices", "No notice of violation is recorded as mailed in the year."
        )
    else:
        n_html = table(
            view.notices,
            [
                view.user(),
                Col("period", "Violations of", fmt=period_words),
                Col(
                    "violations",
                    "Violations listed",
                    num=True,
                    fmt=fmt_num,
                    title="every item of the notice: single samples, daily maximums and monthly averages, "
                    "months without a permit, missed testing, late reports",
                ),
                Col("issued_on", "Mailed on", fmt=fmt_date, nowrap=True),
                Col("correct_by", "To be corrected by", fmt=fmt_date, nowrap=True),
            ],
            empty="No notice of violation is recorded as mailed in the year.",
        )
    return section(
        f"4. Notices of violation mailed, {view.when}",
        n_html,
        sid="notices",
        lead="A notice lists every violation of its month: besides the violations above, the months "
        "without a permit, the missed testing and the late reports.",
    )


def panel_slugs(view: ReportView) -> str:
    data = view.data
    if data.slugs is None:
        g_html = no_data("slug_events", data.present.get("slug_events"), "slug discharges")
    elif view.slugs.empty:
        g_html = none_note(data.judged, "slugs", "No slug discharge in the year.")
    else:
        g_html = table(
            view.slugs,
            [view.user(), *slug_columns()],
            empty="No slug discharge in the year.",
        )
    return section(f"5. Slug discharges, {view.when}", g_html, sid="slugs")


def panel_not_contained(view: ReportView) -> str:
    return section(
        "What this report does not contain",
        note(
            "The description of the pretreatment program and of any change to it, the inspections of the "
            "industrial users and the list of users subject to categorical standards are not kept in these "
            "records; the administrator adds them before the report is sent.",
            "info",
        ),
        sid="not-contained",
    )


# The report, top to bottom: its counts, then each part the regulation names.
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
    html_text = page(
        file=report_file(data.year),
        title=f"Annual pretreatment report {data.year}",
        subtitle=esc(
            f"{who}report to the approval authority under 40 CFR 403.12(i) · calendar year "
            f"{data.year} · as of {day_words(data.as_of)}"
        ),
        body=body,
        as_of=data.as_of,
        town=data.town,
        laws=data.laws,
        generated_at=data.generated_at,
        has_charts=False,
    )
    return html_text, meta
