"""The top of the stormwater page: the worklist, the headline and the counts."""

from __future__ import annotations

import pandas as pd

from dashboards.html import (
    Kpi,
    as_frame,
    day_words,
    fmt_num,
    judged_kpi,
    kpis,
    law_cited,
    months_words,
    noun,
)
from dashboards.stormwater.data import StormwaterData
from dashboards.stormwater.illicit import TOWN_ACTS, overdue_deadlines
from dashboards.stormwater.view import StormwaterView
from dashboards.worklist import worklist_panel
from outfall.words import month_day_words


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
            f"{noun(len(week), 'inspection')} due by {view.week_end:%A} {month_day_words(view.week_end)}",
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
