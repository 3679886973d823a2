"""The top of the sewer page: the worklist, the headline, the counts and the compliance summary."""

from __future__ import annotations

import pandas as pd

from dashboards.html import (
    Col,
    Kpi,
    day_words,
    esc,
    fmt_date,
    fmt_num,
    is_missing,
    join,
    kpis,
    named,
    no_data,
    note,
    noun,
    section,
    short_rule,
    slug,
    table,
)
from dashboards.sewer.data import _frame
from dashboards.sewer.summary import heatmap_chart
from dashboards.sewer.view import SewerView, _status_badge, _within
from dashboards.sewer.violations import OTHER_ITEM_DUTIES
from dashboards.sewer_control import param_label
from dashboards.worklist import worklist_panel


def panel_worklist(view: SewerView) -> str:
    return worklist_panel(view.data.worklist, "superintendent", view.data.as_of, view.data.laws)


def panel_headline(view: SewerView) -> str:
    """The counts of the page, each with the period it covers and linked to the list it counts (the list's
    rows on this page number the card's count); a 0 the rules do not judge reads "not judged" (8.6)."""
    data, summary, judged = view.data, view.summary, view.data.judged
    flagged = summary[summary["permit_expiry_flag"]] if not summary.empty else summary
    slug_users = view.slugs["user_id"].nunique() if not view.slugs.empty else 0
    cards = [
        _violations_card(view),
        Kpi(
            f"inconclusive {noun(len(view.inconc), 'non-detect')}, {view.period}",
            judged.count("limits", len(view.inconc)),
            "detection value above the limit"
            if len(view.inconc)
            else judged.none("limits", "detection value above the limit"),
            "warn" if len(view.inconc) or not judged.judged("limits") else "good",
            "#inconclusive",
        ),
        Kpi(
            f"slug {noun(len(view.slugs), 'event')}, {view.flow_period}",
            judged.count("slugs", len(view.slugs)),
            f"{slug_users} {noun(slug_users, 'user')}"
            if len(view.slugs)
            else judged.none("slugs", "0 users"),
            "bad" if len(view.slugs) else ("good" if judged.judged("slugs") else "warn"),
            "#slugs",
        ),
        _permits_card(view, flagged),
    ]
    if data.snc is not None:
        cards.append(_snc_card(view))
    return kpis(cards)


def _violations_card(view: SewerView) -> Kpi:
    """Every violation the page lists (the items of the notices), by kind; the duties the rules do not judge
    said, and "not judged" in place of a 0 none of them judges."""
    summary, v, statv, judged = view.summary, view.violations, view.statv, view.data.judged
    n_users = int(summary["user_id"].nunique()) if not summary.empty else 0
    by_user = view.violations_by_user()
    total, others = view.violations_total, len(view.other_items)
    duties = ("limits", *OTHER_ITEM_DUTIES.values())
    any_judged = any(judged.judged(d) for d in duties)
    limits = judged.judged("limits")
    counted = [
        f"{fmt_num(len(v))} single {noun(len(v), 'sample')}" if limits or len(v) else "",
        f"{fmt_num(len(statv))} daily maximums or monthly averages" if limits or len(statv) else "",
        f"{fmt_num(others)} other"
        if others or any(judged.judged(d) for d in OTHER_ITEM_DUTIES.values())
        else "",
    ]
    unjudged = judged.reasons(duties)
    said = [
        f"the items of the notices: {', '.join(c for c in counted if c)}" if any(counted) else "",
        f"{len(by_user)} of {n_users} {noun(n_users, 'user')}" if total or any_judged else "",
        unjudged,
    ]
    return Kpi(
        f"{noun(total, 'violation')}, {view.items_period}",
        fmt_num(total) if total or any_judged else "not judged",
        "; ".join(x for x in said if x),
        "bad" if total else ("good" if not unjudged else "warn"),
        "#violation-items",
    )


def _permits_card(view: SewerView, flagged: pd.DataFrame) -> Kpi:
    """The permits expiring (by the rules' policy of a notice of an expiring permit, where they state one)
    or expired."""
    data = view.data
    if data.permit_warn_days is None:  # no policy in effect: only the permits expired are counted
        expired = (
            flagged[pd.to_numeric(flagged["days_left"], errors="coerce") < 0] if len(flagged) else flagged
        )
        return Kpi(
            f"{noun(len(expired), 'permit')} expired",
            fmt_num(len(expired)),
            f"as of {day_words(data.as_of)}; expiring: "
            + data.judged.none("permit_expiry", "no policy in effect on the as-of day"),
            "warn" if len(expired) else "good",
            "#expiring",
        )
    return Kpi(
        f"{noun(len(flagged), 'permit')} expiring {_within(data.permit_warn_days)} or expired",
        fmt_num(len(flagged)),
        f"as of {day_words(data.as_of)}",
        "warn" if len(flagged) else "good",
        "#expiring",
    )


def _snc_card(view: SewerView) -> Kpi:
    """The findings of significant noncompliance: the rows of the section's table (a user, six months and
    a criterion each)."""
    users = view.snc["user_id"].nunique() if not view.snc.empty else 0
    judged = view.data.judged
    return Kpi(
        f"{noun(len(view.snc), 'finding')} of significant noncompliance, {view.period}",
        judged.count("snc", len(view.snc)),
        f"{users} {noun(users, 'user')}, each six months judged on its own"
        if len(view.snc)
        else judged.none("snc", "0 users, each six months judged on its own"),
        "bad" if users else ("good" if judged.judged("snc") else "warn"),
        "#snc",
    )


def _expiring_note(view: SewerView, flagged: pd.DataFrame) -> str:
    items = []
    for _, r in flagged.sort_values("days_left").iterrows():
        days = r.get("days_left")
        when = (
            "expired " + fmt_date(r.get("permit_expires")) + f" ({-int(days)} days ago)"
            if not is_missing(days) and int(days) < 0
            else "expires "
            + fmt_date(r.get("permit_expires"))
            + (f" (in {int(days)} days)" if not is_missing(days) else "")
        )
        items.append(
            f"<li>{named(r['user_id'], r.get('name'), '#user-' + slug(r['user_id']))}: permit "
            f"{esc(r.get('permit_no'))} {esc(when)}</li>"
        )
    rule = view.data.permit_warn_rule
    cite = f" ({esc(short_rule(rule, 40))})" if rule else ""
    return (
        '<div id="expiring">'
        + note(
            f"<strong>Permits expiring {_within(view.data.permit_warn_days)} or expired{cite}:</strong>"
            f"<ul>{''.join(items)}</ul>",
            "warn",
        )
        + "</div>"
    )


def panel_summary(view: SewerView) -> str:
    """One line per user: its permit, and its counts of the year to date beside its violations of the
    period."""
    data, summary = view.data, view.summary
    if summary.empty:
        body = no_data("industrial_users", data.present.get("industrial_users"), "industrial users")
        return section(f"Compliance summary, {view.ytd}", body, sid="summary")
    parts = []
    flagged = summary[summary["permit_expiry_flag"]]
    if not flagged.empty:
        parts.append(_expiring_note(view, flagged))
    if data.summary is None or _frame(data.summary).empty:
        parts.append(
            no_data(
                "compliance_summary",
                data.present.get("compliance_summary"),
                "counts per user (permit dates shown from industrial_users)",
            )
        )
    parts.append(table(_summary_order(view), _summary_cols(view), row_class=_summary_row_class))
    unjudged = data.judged.reasons(("limits", "slugs"))
    if unjudged:
        parts.append(note(esc(unjudged[:1].upper() + unjudged[1:] + "."), "warn"))
    lead = (
        f"Counts of {view.ytd}, and in the last column every violation of {view.items_period}: the items "
        f"of its notices, as the violations below list them (the count on each user's chip below); permit "
        f"status as of {day_words(data.as_of)}."
    )
    return section(f"Compliance summary, {view.ytd}", join(parts), sid="summary", lead=esc(lead))


def _summary_order(view: SewerView) -> pd.DataFrame:
    """The users with their violations of the period, expiring permits first, then the most violations."""
    summary = view.summary
    return summary.assign(
        _v=summary["violations"].fillna(0) + summary["statistic_violations"].fillna(0),
        period_violations=summary["user_id"].map(view.violations_by_user()).fillna(0),
    ).sort_values(["permit_expiry_flag", "_v", "user_id"], ascending=[False, False, True])


def _worst_words(r: dict) -> str:
    """A user's worst exceedance of the year: '1.50 × the limit, <parameter>' (blank for none)."""
    if is_missing(r.get("worst")):
        return ""
    parameter = f"{param_label(r.get('worst_parameter'))}" if not is_missing(r.get("worst_parameter")) else ""
    return esc(f"{float(r['worst']):.2f} × the limit, " + parameter)


def _summary_row_class(r: dict) -> str:
    """A user with violations in red; one whose permit is expiring in amber."""
    if (r.get("violations") or 0) + (r.get("statistic_violations") or 0) > 0:
        return "row-bad"
    return "row-warn" if r.get("permit_expiry_flag") else ""


def _summary_cols(view: SewerView) -> list[Col]:
    """The columns of the compliance summary: a count of 0 of a duty the rules do not judge reads "not
    judged" (contract 8.6)."""
    count = lambda v: fmt_num(v)  # noqa: E731

    def of(*duties: str):
        judged = view.data.judged
        stated = any(judged.judged(d) for d in duties)
        return lambda v: fmt_num(v) if stated or (not is_missing(v) and v) else "not judged"

    return [
        Col(
            "user_id",
            "User",
            width="26%",
            html=lambda r: named(r["user_id"], view.names.get(r["user_id"]), f"#user-{slug(r['user_id'])}"),
        ),
        Col("permit_no", "Permit", html=lambda r: esc(r.get("permit_no")) + " " + _status_badge(r)),
        Col("permit_expires", "Expires", nowrap=True, fmt=fmt_date),
        Col("samples", "Samples", fmt=count, num=True),
        Col("violations", "Single-sample violations", fmt=of("limits"), num=True),
        Col(
            "statistic_violations", "Daily maximum or monthly average violations", fmt=of("limits"), num=True
        ),
        Col("inconclusive", "Inconclusive", fmt=of("limits"), num=True),
        Col("slugs", "Slugs", fmt=of("slugs"), num=True),
        Col("worst", "Worst exceedance", html=_worst_words),
        Col(
            "period_violations",
            f"All violations, {view.items_period}",
            fmt=of("limits", *OTHER_ITEM_DUTIES.values()),
            num=True,
        ),
    ]


def panel_heatmap(view: SewerView) -> str:
    data = view.data
    hm = heatmap_chart(data, view.summary) if not view.summary.empty or not view.violations.empty else None
    title = f"Violations by user and month, {view.period}"
    if hm is None:
        return section(
            title, no_data("discharge_violations", data.present.get("discharge_violations"), "violations")
        )
    view.charts.append(hm)
    extra = ""
    if (data.summary is None or _frame(data.summary).empty) and view.violations.empty:
        extra = no_data("discharge_violations", data.present.get("discharge_violations"), "violations")
    return section(title, extra + hm.html(), sid="heatmap")
