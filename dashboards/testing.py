"""The sewer page's panel of required testing (contract 6.3): per industrial user and required test, a
calendar of the last twelve months in which each period of testing is a cell, coloured and labelled met,
missed or open with its number of samples; a legend in plain words; and every missed period, listed.

Pure: ``required_testing_section(frame, as_of, present) -> html``; the frame is table required_testing as read
by ``sql/sewer/select_dashboard_required_testing.sql``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pandas as pd

from dashboards.html import (
    Col,
    badge,
    esc,
    is_missing,
    no_data,
    none_note,
    note,
    section,
    short_rule,
    slug,
    table,
)
from outfall.rules.judged import Judged

CALENDAR_MONTHS = 12
FREQUENCY_WORDS = {
    "monthly": "monthly",
    "quarterly": "every quarter",
    "semiannual": "every half-year",
    "annual": "every year",
}
SAMPLE_WORDS = {"composite": "composite sample", "grab": "grab sample"}
#: status -> (background, text colour, words)
STATUS_LOOK = {
    "met": ("#d1fae5", "#065f46", "met"),
    "missed": ("#fee2e2", "#991b1b", "missed"),
    "open": ("#dbeafe", "#1e40af", "open"),
}
CELL = (
    "text-align:center;font-size:12px;border:2px solid #fff;-webkit-print-color-adjust:exact;"
    "print-color-adjust:exact"
)


def _months(as_of: dt.date) -> list[dt.date]:
    """The first days of the last CALENDAR_MONTHS months, the as-of day's month last."""
    index = as_of.year * 12 + as_of.month - 1
    return [dt.date(i // 12, i % 12 + 1, 1) for i in range(index - CALENDAR_MONTHS + 1, index + 1)]


def requirement_words(r: Any) -> str:
    """'BOD, composite sample, monthly'; 'chlorine demand, any sample, every quarter'."""
    kind = (
        SAMPLE_WORDS.get(r["sample_type"], "any sample") if not is_missing(r["sample_type"]) else "any sample"
    )
    return (
        f"{str(r['parameter']).replace('_', ' ')}, {kind}, "
        f"{FREQUENCY_WORDS.get(r['frequency'], r['frequency'])}"
    )


def period_words(r: Any) -> str:
    """'October 2026'; 'April to June 2026'; '2026'."""
    start, end = pd.Timestamp(r["period_start"]), pd.Timestamp(r["period_end"])
    if r["frequency"] == "annual" and start.month == 1 and end.month == 12:
        return f"{start:%Y}"
    if start.month == end.month and start.year == end.year:
        return f"{start:%B %Y}"
    return f"{start:%B} to {end:%B %Y}"


def _cell(period: Any, span: int) -> str:
    background, colour, words = STATUS_LOOK.get(period["status"], ("#f3f4f6", "#374151", period["status"]))
    n = int(period["samples"]) if not is_missing(period["samples"]) else 0
    count = f"{n} sample{'s' if n != 1 else ''}" if n else "no sample"
    tip = f"{period_words(period)}: {words}, {count}"
    return (
        f'<td colspan="{span}" title="{esc(tip)}" style="{CELL};background:{background};color:{colour}">'
        f"<strong>{esc(words)}</strong><br>{esc(count)}</td>"
    )


def calendar_row(periods: pd.DataFrame, months: list[dt.date]) -> str:
    """The cells of one required test across ``months``: a period is one cell spanning its months in view
    (a quarter, three); a month no period covers is an empty cell."""
    spans = [
        (pd.Timestamp(s).date(), pd.Timestamp(e).date(), r)
        for s, e, r in zip(periods["period_start"], periods["period_end"], periods.to_dict("records"))
    ]
    cells, i = [], 0
    while i < len(months):
        found = next(((e, r) for s, e, r in spans if s <= months[i] <= e), None)
        if found is None:
            cells.append("<td></td>")
            i += 1
            continue
        span = sum(1 for m in months[i:] if m <= found[0])
        cells.append(_cell(found[1], span))
        i += span
    return "".join(cells)


def calendar_table(frame: pd.DataFrame, as_of: dt.date) -> str:
    """One row per user and required test, one column per month of the last twelve; the users who missed
    testing in them first."""
    months = _months(as_of)
    frame = frame[pd.to_datetime(frame["period_end"]) >= pd.Timestamp(months[0])]
    if frame.empty:
        return note("No testing was required in the last twelve months.", "empty")
    head = "".join(f'<th style="text-align:center">{m:%b}<br>{m:%Y}</th>' for m in months)
    body = []
    keys = ["user_id", "parameter", "sample_type", "frequency"]
    missed = set(frame.loc[frame["status"] == "missed", "user_id"])
    frame = frame.assign(_first=~frame["user_id"].isin(missed)).sort_values("_first", kind="stable")
    for key, periods in frame.groupby(keys, dropna=False, sort=False):
        first = periods.iloc[0]
        name = "" if is_missing(first["name"]) else f" · {esc(first['name'])}"
        who = f'<a href="#user-{esc(slug(key[0]))}">{esc(key[0])}</a>{name}'
        body.append(
            f"<tr><td>{who}</td><td>{esc(requirement_words(first))}</td>{calendar_row(periods, months)}</tr>"
        )
    return (
        f'<div class="table-wrap"><table class="calendar"><thead><tr><th style="width:17%">User</th>'
        f'<th style="width:14%">Testing required</th>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def legend(as_of: dt.date) -> str:
    parts = [
        f'<span style="{CELL};background:{b};color:{c};padding:1px 8px;border-radius:4px">{esc(w)}</span> '
        f"{esc(why)}"
        for b, c, w, why in (
            (*STATUS_LOOK["met"], "at least one sample was taken in the period (the number is shown)"),
            (
                *STATUS_LOOK["missed"],
                "the period ended with no sample: a violation, listed in the notice "
                "of the month the period ended",
            ),
            (
                *STATUS_LOOK["open"],
                f"no sample yet, and the period has not ended before {as_of:%B} {as_of.day}, {as_of.year}",
            ),
        )
    ]
    return note(
        "; ".join(parts) + ". A blank month: no testing required then. A quarter, half-year or year "
        "is one cell across its months.",
        "info",
    )


def missed_table(frame: pd.DataFrame, judged: Judged | None = None) -> str:
    """Every missed period (all of them, not only the last twelve months), newest first."""
    missed = frame[frame["status"] == "missed"].sort_values(
        ["period_end", "user_id"], ascending=[False, True]
    )
    if missed.empty:
        return none_note(judged or Judged(), "testing", "No required testing was missed.")
    return table(
        missed,
        [
            Col("user_id", "User", nowrap=True),
            Col("name", "Name"),
            Col("parameter", "Testing required", html=lambda r: esc(requirement_words(r))),
            Col("period_start", "Period", nowrap=True, html=lambda r: esc(period_words(r))),
            Col("status", "Status", html=lambda r: badge("missed", "bad")),
            Col("basis", "Set by"),
            Col("rule", "Rule (section)", fmt=short_rule),
        ],
    )


def required_testing_section(
    frame: pd.DataFrame | None, as_of: dt.date, present: bool | None, judged: Judged | None = None
) -> str:
    """The panel: the calendar, its legend and the missed periods; a note when there is nothing (why not,
    where the rules state no rule of required testing: contract 8.6)."""
    judged = judged or Judged()
    if frame is None or frame.empty:
        body = (
            no_data("required_testing", present, "testing required of the industrial users")
            if judged.judged("testing")
            else none_note(judged, "testing", "No testing is required of the industrial users.")
        )
        return section("Required testing", body, sid="testing")
    rules = sorted({str(r) for r in frame["rule"] if not is_missing(r)})
    lead = (
        "The testing the administrator requires of each user, period by period, over the last twelve "
        "months" + (f" ({esc('; '.join(rules))})" if rules else "") + ". Users who missed testing in them "
        "come first."
    )
    body = "".join(
        [
            legend(as_of),
            calendar_table(frame, as_of),
            '<h3 id="missed-testing">Missed testing</h3>',
            missed_table(frame, judged),
        ]
    )
    return section("Required testing", body, sid="testing", lead=lead)
