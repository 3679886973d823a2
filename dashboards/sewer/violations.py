"""The sewer page's violations: single samples, daily maxima and monthly averages, the other items and
the slug discharges."""

from __future__ import annotations

import pandas as pd

from dashboards.html import (
    Col,
    RuleNotes,
    esc,
    fmt_date,
    fmt_measure,
    fmt_num,
    is_missing,
    join,
    judged_nothing,
    month_words,
    named,
    no_data,
    none_note,
    section,
    slug,
    slug_columns,
    table,
    units_in_words,
)
from dashboards.sewer.data import _frame
from dashboards.sewer.view import STATISTIC_WORDS, SewerView, when_collected
from dashboards.sewer_control import param_label
from dashboards.sewer_flow import slug_words


def _notice_of(view: SewerView) -> dict[tuple, dict]:
    """Each violation's notice (its month, status and mailing day), by user, sample and parameter."""
    follow = _frame(view.data.follow_up)
    if follow.empty:
        return {}
    keys = zip(follow["user_id"], follow["sample_id"], follow["parameter"])
    return {k: r for k, r in zip(keys, follow.to_dict("records"))}


def notice_words(r: dict | None) -> str:
    """'March 2026, draft'; 'April 2026, mailed 2026-05-03'; blank when the violation has no notice."""
    if not r or is_missing(r.get("notice_period")):
        return ""
    month = month_words(pd.Timestamp(f"{r['notice_period']}-01"))
    status = str(r.get("notice_status") or "")
    if status == "mailed" and not is_missing(r.get("issued_on")):
        return f"{month}, mailed {fmt_date(r['issued_on'])}"
    if status == "not_drafted":  # the rules do not say how to issue a notice (contract 8.6)
        return f"{month}, none drafted"
    return f"{month}, {status}"


def violations_table(view: SewerView, rules: RuleNotes) -> str:
    """Every single-sample violation, a table per user (most violations first), newest first, each with its
    notice."""
    v, data = view.violations, view.data
    if v.empty:
        if data.judged.judged("limits") and view.results.empty:
            return no_data("discharge_violations", data.present.get("discharge_violations"))
        return judged_nothing(
            data.judged, "limits", "discharge_violations", data.present, "No sample broke a limit."
        )
    notices = _notice_of(view)
    cols = [
        Col("collected_at", "Collected", nowrap=True, fmt=when_collected),
        Col("sample_id", "Sample", nowrap=True),
        Col("parameter", "Parameter", fmt=param_label),
        Col(
            "value",
            "Result",
            num=True,
            html=lambda r: esc(fmt_measure(r["value"], r.get("unit"), exact=True)),
        ),
        Col(
            "limit_value",
            "Limit",
            num=True,
            html=lambda r: esc(
                (
                    f"{r.get('limit_type') or ''} {fmt_measure(r['limit_value'], r.get('unit'), exact=True)}"
                ).strip()
            ),
        ),
        Col("exceedance_ratio", "× limit", num=True, fmt=lambda x: f"{float(x):.2f}×"),
        rules.col("rule", "Rule (section)", limit=32),
    ]
    if notices:
        cols.append(
            Col(
                "notice",
                "Notice of the month",
                nowrap=True,
                html=lambda r: esc(notice_words(notices.get((r["user_id"], r["sample_id"], r["parameter"])))),
            )
        )
    counts = v.groupby("user_id").size().sort_values(ascending=False, kind="stable")
    order = sorted(counts.index, key=lambda u: (-counts[u], str(u)))
    parts = []
    for u, rows in ((u, v[v["user_id"] == u]) for u in order):
        n = len(rows)
        parts.append(
            f'<h4 class="of-user">{named(u, view.names.get(u), f"#user-{slug(u)}")}: {n} single '
            f"sample{'s' if n != 1 else ''}</h4>"
        )
        parts.append(table(rows.sort_values("collected_at", ascending=False), cols))
    return join(parts)


def statistics_table(view: SewerView, rules: RuleNotes) -> str:
    statv, present = view.statv, view.data.present
    if statv.empty:
        return judged_nothing(view.data.judged, "limits", "statistic_violations", present, "None.")

    def period(r: dict) -> str:
        if r.get("statistic") == "monthly_avg":
            return month_words(r["period_start"])
        return (
            fmt_date(r["period_start"])
            if fmt_date(r["period_start"]) == fmt_date(r["period_end"])
            else f"{fmt_date(r['period_start'])} to {fmt_date(r['period_end'])}"
        )

    return table(
        statv.sort_values("period_start", ascending=False),
        [
            view.user(),
            Col("parameter", "Parameter", fmt=param_label),
            Col("statistic", "Of", nowrap=True, fmt=lambda x: STATISTIC_WORDS.get(str(x), str(x))),
            Col("period_start", "Period", nowrap=True, html=lambda r: esc(period(r))),
            Col("value", "Value", num=True, html=lambda r: esc(fmt_measure(r["value"], r.get("unit")))),
            Col(
                "limit_value",
                "Limit",
                num=True,
                html=lambda r: esc(fmt_measure(r["limit_value"], r.get("unit"), exact=True)),
            ),
            Col("samples", "Samples", num=True),
            rules.col("rule", "Rule (section)"),
        ],
    )


def inconclusive_table(view: SewerView, rules: RuleNotes) -> str:
    inconc, present = view.inconc, view.data.present
    if inconc.empty:
        return judged_nothing(view.data.judged, "limits", "inconclusive_results", present, "None.")
    return table(
        inconc.sort_values("collected_at", ascending=False),
        [
            view.user(),
            Col("collected_at", "Collected", nowrap=True, fmt=when_collected),
            Col("sample_id", "Sample", nowrap=True),
            Col("parameter", "Parameter", fmt=param_label),
            Col(
                "detection_value",
                "Reported",
                num=True,
                html=lambda r: esc(
                    f"{r.get('qualifier') or '<'}"
                    f"{fmt_measure(r['detection_value'], r.get('unit'), exact=True)}"
                ),
            ),
            Col(
                "limit_value",
                "Limit",
                num=True,
                html=lambda r: esc(fmt_measure(r["limit_value"], r.get("unit"), exact=True)),
            ),
            Col("reason", "Why"),
            rules.col("rule", "Rule"),
        ],
    )


def panel_violations(view: SewerView) -> str:
    """Which user broke which limit, when, by how much and under which section."""
    rules = RuleNotes("rule-violations")
    body = join(
        [
            '<div id="violation-items">',  # the items of the notices: the list the violations card counts
            '<h3 id="violations">Single samples above (or below) their limit</h3>',
            violations_table(view, rules),
            '<h3 id="statistic">Daily maximums and monthly averages above their limit</h3>',
            statistics_table(view, rules),
            '<h3 id="other-items">Reports, testing and permits</h3>',
            other_items_table(view, rules),
            "</div>",
            '<div id="inconclusive"><h3>Inconclusive non-detects (not violations)</h3>',
            inconclusive_table(view, rules),
            "</div>",
            rules.notes(),
        ]
    )
    lead = (
        f"Every violation of {view.items_period}, {fmt_num(view.violations_total)} in all, newest first: "
        "each is an item of the notice of its month. Which user broke which limit, when, by how much and "
        "under which section (numbered: the full text of each section is at the end); then the reports "
        "late or missing, the testing missed and the months of discharging without a permit."
    )
    return section(f"Violations, {view.items_period}", body, sid="findings", lead=esc(lead))


# The other items of a notice, as the violations list names them in one line each.
OTHER_ITEM_WORDS = {
    "late_report": "report late or missing",
    "missed_testing": "testing missed",
    "no_permit": "month without a permit",
}
# The duty of the rules that judges each (contract 8.6: "no ..." only where it is judged).
OTHER_ITEM_DUTIES = {"late_report": "reports", "missed_testing": "testing", "no_permit": "permits"}


def other_items_table(view: SewerView, rules: RuleNotes) -> str:
    """The notices' items other than a result over its limit: what, when, and the notice that lists it."""
    items = view.other_items
    if items.empty:
        judged = view.data.judged
        return "".join(
            none_note(judged, OTHER_ITEM_DUTIES[k], f"No {w}.") for k, w in OTHER_ITEM_WORDS.items()
        )
    cols = [
        view.user(),
        Col("item_on", "Day", nowrap=True, fmt=fmt_date),
        Col(
            "item", "What", nowrap=True, fmt=lambda x: OTHER_ITEM_WORDS.get(str(x), str(x).replace("_", " "))
        ),
        Col(  # on paper the row is one line: what, when, the rule and the notice (the letter says the rest)
            "description", "Found", html=lambda r: esc(units_in_words(r.get("description"))), screen_only=True
        ),
        rules.col("rule", "Rule (section)", limit=32),
        Col(
            "period",
            "Notice of the month",
            nowrap=True,
            html=lambda r: esc(
                notice_words(
                    {
                        "notice_period": r.get("period"),
                        "notice_status": r.get("notice_status"),
                        "issued_on": r.get("issued_on"),
                    }
                )
            ),
        ),
    ]
    return table(items, cols)


def panel_slugs(view: SewerView) -> str:
    rules = RuleNotes("rule-slugs")
    parts = ['<div id="slugs"><h3>Slug events</h3>', _slug_table(view, rules), "</div>"]
    if not view.gaps.empty:
        parts.append('<h3 id="baseline-gaps">Readings not judged for slugs (no baseline)</h3>')
        parts.append(_baseline_gap_table(view))
    parts.append(rules.notes())
    words, _ = slug_words(view.data.slug_rules)
    return section(
        f"Slug discharges, {view.flow_period}",
        join(parts),
        sid="slug-section",
        lead=esc(f"A slug: {words}. Peaks and baselines in the meter's unit (gpm: gallons per minute)."),
    )


def _slug_table(view: SewerView, rules: RuleNotes) -> str:
    """The slug events, newest first (or why there are none)."""
    slugs, present = view.slugs, view.data.present
    if slugs.empty:
        return judged_nothing(
            view.data.judged, "slugs", "slug_events", present, "No slug discharge detected."
        )
    return table(
        slugs.sort_values("start_at", ascending=False),
        [view.user(), *slug_columns(), rules.col("rule", "Rule")],
    )


def _baseline_gap_table(view: SewerView) -> str:
    """The days of meter readings not judged for slugs, for want of a baseline."""
    return table(
        view.gaps,
        [
            view.user(),
            Col("constituent", "Of"),
            Col("first_day", "From", nowrap=True, fmt=fmt_date),
            Col("last_day", "To", nowrap=True, fmt=fmt_date),
            Col("days_lacking", "Days", num=True),
            Col("readings_not_judged", "Readings not judged", num=True, fmt=fmt_num),
            Col("reason", "Why"),
        ],
    )
