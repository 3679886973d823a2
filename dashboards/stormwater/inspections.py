"""The stormwater page's inspections: the week ahead, the sites, the inspections missed, the other
items and the notices."""

from __future__ import annotations

import pandas as pd

from dashboards.html import (
    Col,
    RuleNotes,
    as_frame,
    badge,
    day_words,
    esc,
    fmt_date,
    fmt_num,
    is_missing,
    join,
    judged_nothing,
    law_cited,
    named,
    no_data,
    none_note,
    section,
    short_rule,
    slug,
    table,
)
from dashboards.notices import finding_words, notices_table, stormwater_follow_up
from dashboards.stormwater.data import STATUS_TONE, StormwaterData
from dashboards.stormwater.illicit import illicit_section
from dashboards.stormwater.practices import practices_section
from dashboards.stormwater.sites import _storm_window_words
from dashboards.stormwater.view import REQUIREMENT_WORDS, UPCOMING_WORDS, StormwaterView
from outfall.words import month_day_words


def _week_end(view: StormwaterView) -> str:
    """'Monday December 7', as the cards say it (the day not zero-padded)."""
    return f"{view.week_end:%A} {month_day_words(view.week_end)}"


def _due_badge(r: pd.Series) -> str:
    words, tone = UPCOMING_WORDS.get(
        str(r.get("status") or ""), (str(r.get("status") or "").replace("_", " "), "info")
    )
    days = r.get("days_until_due")
    if not is_missing(days):
        d = int(days)
        words += f" ({-d} days ago)" if d < 0 else (f" (in {d} days)" if d > 1 else "")
    return badge(words, tone)


def _upcoming_cols(view: StormwaterView, rules: RuleNotes, with_status: bool) -> list[Col]:
    cols = [Col("due_by", "Due by", fmt=lambda v: pd.Timestamp(v).strftime("%a %Y-%m-%d"), nowrap=True)]
    if with_status:
        cols.append(Col("status", "When", html=_due_badge, nowrap=True))
    return cols + [
        view.site(),
        Col("requirement", "Inspection", fmt=lambda v: REQUIREMENT_WORDS.get(v, v)),
        Col("inspector", "By"),
        Col("detail", "Why"),
        rules.col("rule", "Rule (section)", limit=40),
    ]


def panel_upcoming(view: StormwaterView) -> str:
    data = view.data
    week, later = view.week()
    rules = RuleNotes("rule-upcoming")
    if data.upcoming is None or view.upcoming.empty:
        html_text = judged_nothing(
            data.judged,
            "inspections",
            "swppp_upcoming",
            data.present,
            "No inspection is due.",
            what="upcoming inspections",
        )
    elif week.empty:
        html_text = none_note(data.judged, "inspections", f"No inspection is due by {_week_end(view)}.")
    else:
        html_text = table(
            week,
            _upcoming_cols(view, rules, True),
            row_class=lambda r: "row-bad" if r.get("status") == "overdue" else "row-warn",
        )
    if data.upcoming is not None and not later.empty:
        html_text += f"<h3>Due after {_week_end(view)} ({len(later)})</h3>" + table(
            later.sort_values(["due_by", "site_id"]), _upcoming_cols(view, rules, False)
        )
    return section(
        f"This week's inspections (through {_week_end(view)})",
        html_text + rules.notes(),
        sid="upcoming",
        lead=esc(
            f"Overdue first, then by due date. Storm inspections are due "
            f"{_storm_window_words(data)} a day with rain at or above the storm "
            "threshold."
        ),
    )


def conditions_legend(view: StormwaterView) -> str:
    """Conditions A, B and C in the rules' own words, with where each says so."""
    as_of = view.data.as_of
    found: dict[str, dict[str, list[str]]] = {}
    for j, rules in sorted(view.data.rules.items()):
        versions = [rules.swppp.applicability.get(as_of)]
        if rules.swppp.conditions is not None:
            versions.append(rules.swppp.conditions.get(as_of))
        for version in versions:
            for letter in ("a", "b", "c"):
                condition = getattr(version, f"condition_{letter}", None)
                if condition is None:
                    continue
                head, _, words = condition.citation.partition(": ")
                found.setdefault(letter.upper(), {}).setdefault(words or head, []).append(
                    f"{view.jurisdiction(j)}, {short_rule(head.rsplit(', Condition', 1)[0], 60)}"
                )
    if not found:
        return ""
    items = "".join(
        f"<dt>Condition {esc(letter)}</dt><dd>{esc(words[:1].upper() + words[1:])} "
        f'<span class="muted">({esc("; ".join(where))})</span></dd>'
        for letter, texts in sorted(found.items())
        for words, where in texts.items()
    )
    return f'<dl class="legend">{items}</dl>'


def _conditions(r: pd.Series) -> str:
    value = r.get("conditions")
    if is_missing(value) or not str(value).strip():
        return "none"
    letters = [c.strip() for c in str(value).split(",") if c.strip()]
    return ("Condition " if len(letters) == 1 else "Conditions ") + " and ".join(letters)


def panel_sites(view: StormwaterView) -> str:
    data, status = view.data, view.status
    if status.empty:
        s_html = no_data("sites", data.present.get("sites"), "construction sites")
    else:
        s_html = (
            _sites_missing_notes(data)
            + table(status, _site_cols(view), row_class=_site_row_class)
            + conditions_legend(view)
        )
    return section(
        "Sites by status",
        s_html,
        sid="sites",
        lead=esc(
            f"Status on {day_words(data.as_of)}: overdue = an inspection due and not made; late = made "
            "after its due date; other findings are disturbance, sediment, milestone-notice, certification "
            f"and report findings. Counts of all the findings on file (inspections due {view.period})."
        ),
    )


def _sites_missing_notes(data: StormwaterData) -> str:
    """What the sites table cannot say for want of the classification or the inspection findings."""
    notes = ""
    if data.classification is None or as_frame(data.classification).empty:
        notes += no_data(
            "site_classification", data.present.get("site_classification"), "which sites need inspections"
        )
    if data.findings is None:
        notes += no_data(
            "swppp_inspection_findings",
            data.present.get("swppp_inspection_findings"),
            "late and overdue inspections",
        )
    return notes


def _site_row_class(r: dict) -> str:
    """A site's row coloured by its status."""
    return {"overdue": "row-bad", "late": "row-warn", "in compliance": "row-good"}.get(r["status"], "")


def _site_cols(view: StormwaterView) -> list[Col]:
    """The columns of the sites table."""
    return [
        Col(
            "site_id",
            "Site",
            width="22%",
            html=lambda r: (
                named(r["site_id"], r.get("name"), f"#site-{slug(r['site_id'])}")
                + f"<br><small>{esc(view.jurisdiction(r.get('jurisdiction')))}</small>"
            ),
        ),
        Col("status", "Status", html=lambda r: badge(r["status"], STATUS_TONE.get(r["status"], ""))),
        Col("applicant", "Applicant"),
        Col("disturbed_acres", "Acres", num=True, fmt=lambda v: fmt_num(v, 1)),
        Col("conditions", "Conditions met", html=lambda r: esc(_conditions(r))),
        Col(
            "construction_start",
            "Active",
            nowrap=True,
            html=lambda r: (
                esc(f"starts {fmt_date(r.get('construction_start'))}")
                if not r.get("started", True)
                else esc(f"{fmt_date(r.get('construction_start'))} to ")
                + "<br>"
                + esc(fmt_date(r.get("final_stabilization")) or "still active")
            ),
        ),
        Col("inspections", "Inspections made", num=True),
        Col("last_inspection", "Last", fmt=fmt_date, nowrap=True),
        Col("late", "Made late", num=True),
        Col("overdue", "Not made", num=True),
        Col(
            "other_findings",
            "Other findings",
            num=True,
            title="disturbance, sediment, milestone notice, certification, report delivery",
        ),
        Col("notices", "Findings on notices", num=True),
    ]


def panel_missed(view: StormwaterView) -> str:
    """The inspections not made (overdue) and those made late: the two lists the page's cards count."""
    findings = view.findings
    if findings.empty:
        return ""
    rules = RuleNotes("rule-missed")
    cols = [
        view.site(),
        Col("requirement", "Inspection", fmt=lambda v: REQUIREMENT_WORDS.get(v, v)),
        Col("due_by", "Due by", fmt=fmt_date, nowrap=True),
        Col("satisfied_on", "Made on", fmt=fmt_date, nowrap=True),
        Col("days_late", "Days late", num=True, fmt=fmt_num),
        rules.col("rule", "Rule (section)", limit=40),
    ]
    parts = []
    for status, sid, title, tone in (
        ("overdue", "inspections-overdue", "Not made, overdue", "row-bad"),
        ("late", "inspections-late", "Made late", "row-warn"),
    ):
        rows = findings[findings["status"] == status].sort_values(
            ["due_by", "site_id"], ascending=[False, True]
        )
        listed = (
            table(
                rows,
                [c for c in cols if status == "late" or c.key != "satisfied_on"],
                row_class=lambda r, tone=tone: tone,
                whole=True,
            )
            if not rows.empty
            else none_note(view.data.judged, "inspections", "None.")
        )
        parts.append(f'<div id="{sid}"><h3>{esc(title)} ({len(rows)})</h3>{listed}</div>')
    parts.append(rules.notes())
    return section(
        "Inspections not made or made late",
        join(parts),
        sid="missed",
        lead=esc(
            f"Each inspection due {view.period} that was not made by {day_words(view.data.as_of)}, then "
            "each made after the day it was due, the latest due first."
        ),
    )


def panel_other(view: StormwaterView) -> str:
    other = view.other
    if other.empty:
        return (
            section("Other findings", no_data("swppp_other_findings", False), sid="other")
            if view.data.other is None
            else ""
        )
    rules = RuleNotes("rule-other")
    o_html = table(
        other.sort_values(["site_id", "trigger_date"]),
        [
            view.site(),
            Col("finding", "Finding", fmt=finding_words),
            Col(
                "status",
                "Status",
                html=lambda r: badge(
                    str(r["status"]).capitalize(), "bad" if r["status"] == "overdue" else "warn"
                ),
            ),
            Col("detail", "Detail"),
            Col("due_by", "Due by", fmt=fmt_date, nowrap=True),
            Col("days_late", "Days late", num=True),
            rules.col("rule", "Rule (section)", limit=40),
        ],
    )
    return section("Other findings", o_html + rules.notes(), sid="other")


def panel_notices(view: StormwaterView) -> str:
    data = view.data
    body = join(
        [
            '<div id="monthly-notices"><h3>Notices, one per site and month</h3>',
            notices_table(
                data.monthly_notices,
                "stormwater",
                "Site",
                view.names,
                data.notice_items,
                judged=data.judged,
                found=len(view.findings) + len(view.other),
            ),
            "</div>",
            '<h3 id="notice-follow-up">Each finding and its notice</h3>',
            stormwater_follow_up(data.follow_up, view.names, judged=data.judged),
        ]
    )
    periods = []
    for j, rules in sorted(data.rules.items()):
        penalty = (
            rules.penalties.stormwater.get(data.as_of)
            if rules.penalties and rules.penalties.stormwater
            else None
        )
        if penalty is not None:
            periods.append(f"each {penalty.per} in the {view.jurisdiction(j)}")
    counted = (
        f" Penalties count {' and '.join(periods)} that a violation continues after the day to correct."
        if periods
        else ""
    )
    record = f" The {data.municipality}'s record, not sent to the site."
    lead = (
        f"{law_cited(data.laws, 'stormwater')}: the notice of violation sets the time "
        "schedule of the remedial measures; it runs from the day the notice is mailed." + counted
        if data.judged.judged("stormwater_notices")
        else f"{data.judged.reason('stormwater_notices')}: the findings are listed, and no notice is drafted."
    )
    return section("Notices of violation and follow-up", body, sid="notices-section", lead=esc(lead + record))


def panel_illicit(view: StormwaterView) -> str:
    return illicit_section(view.data)


def panel_practices(view: StormwaterView) -> str:
    return practices_section(view)
