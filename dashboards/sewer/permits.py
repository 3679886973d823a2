"""The sewer page's enforcement panels: significant noncompliance, permits, notices, required testing,
and discharges without a permit."""

from __future__ import annotations

import pandas as pd

from dashboards.html import (
    Col,
    RuleNotes,
    badge,
    esc,
    fmt_date,
    fmt_num,
    join,
    judged_nothing,
    law_cited,
    months_words,
    named,
    none_note,
    section,
    short_name,
    slug,
    table,
)
from dashboards.notices import notices_table, sewer_follow_up
from dashboards.sewer.data import SewerData, _frame
from dashboards.sewer.view import CRITERION_WORDS, SNC_BASIS_LABELS, SewerView
from dashboards.sewer_control import param_label
from dashboards.testing import required_testing_section


def _snc_count(r: dict) -> str:
    if r.get("criterion") == "late_report":
        return f"{int(r['count'])} of {int(r['measurements'])} reports due ({float(r['pct']):.0f}%)"
    what = SNC_BASIS_LABELS.get(str(r.get("basis")), "measurements")
    return f"{int(r['count'])} of {int(r['measurements'])} {what} ({float(r['pct']):.0f}%)"


def panel_snc(view: SewerView) -> str:
    if view.data.snc is None:
        return ""
    snc = view.snc
    rules = RuleNotes("rule-snc")
    judged = view.data.judged
    if not judged.judged("snc"):
        return section(
            f"Significant noncompliance, {view.period}",
            none_note(judged, "snc", "No user meets a criterion of significant noncompliance."),
            sid="snc",
        )
    if snc.empty:
        body = none_note(judged, "snc", "No user meets a criterion of significant noncompliance.")
    else:
        body = (
            table(
                snc.sort_values(["period_start", "user_id"], ascending=[False, True]),
                [
                    view.user(),
                    Col(
                        "period_start",
                        "Six months",
                        nowrap=True,
                        html=lambda r: esc(months_words(r["period_start"], r["period_end"])),
                    ),
                    Col(
                        "criterion",
                        "Criterion",
                        html=lambda r: badge(
                            CRITERION_WORDS.get(str(r.get("criterion")), str(r.get("criterion"))), "bad"
                        ),
                    ),
                    Col("parameter", "Parameter", fmt=param_label),
                    Col("count", "How many", html=lambda r: esc(_snc_count(r))),
                    rules.col("rule", "Rule", limit=26),
                ],
            )
            + rules.notes()
        )
    lead = (
        "40 CFR 403.8(f)(2)(viii), per user and six-month period (January to June, July to December). Single "
        "samples, daily maximums and monthly averages are each judged on their own; each criterion's rule is "
        "in full at the end of the section."
    )
    return section(f"Significant noncompliance, {view.period}", body, sid="snc", lead=esc(lead))


def panel_permits(view: SewerView) -> str:
    parts = permit_parts(view)
    if not parts:
        return ""
    return section(
        "Discharging without a permit",
        join(parts),
        sid="without-permit",
        lead=esc(
            f"Days with a sample or a flow reading above 0 when the user's permit was not in effect, "
            f"{view.period}."
        ),
    )


def panel_notices(view: SewerView) -> str:
    """The monthly notices of violation, and the follow-up of each violation on a mailed notice."""
    judged = view.data.judged
    body = join(
        [
            '<h3 id="notices">Notices, one per user and month</h3>',
            notices_table(
                view.data.notices,
                "sewer",
                "User",
                view.names,
                view.data.notice_items,
                judged=judged,
                found=view.violations_total,
            ),
            '<h3 id="follow-up">Follow-up of the violations on mailed notices</h3>',
            sewer_follow_up(
                view.data.follow_up, view.names, law_cited(view.data.laws, "sewer_penalty"), judged=judged
            ),
        ]
    )
    return section(
        "Notices of violation and follow-up", body, sid="notices-section", lead=esc(_notices_lead(view))
    )


def _notices_lead(view: SewerView) -> str:
    """How the rules have a notice served, its period to correct and its penalty days counted, each only as
    the rules state it (contract 8.7, 8.8); the municipality's record, not sent to the user."""
    data, judged = view.data, view.data.judged
    record = f"The {data.municipality}'s record, not sent to the user."
    if not judged.judged("sewer_notices"):
        return (
            f"{judged.reason('sewer_notices')}: the violations are listed, and no notice is drafted. {record}"
        )
    by = f" by {data.notice_mailing}" if data.notice_mailing else ""
    law = law_cited(data.laws, "sewer_use")
    if not judged.judged("sewer_correction"):
        return f"{law}, enforcement: a notice{by}; {judged.reason('sewer_correction')}. {record}"
    return (
        f"{law}, enforcement: a notice{by} sets a period to correct; {law_cited(data.laws, 'sewer_penalty')} "
        f"penalty days count from the day after it. {record}"
    )


def panel_testing(view: SewerView) -> str:
    return required_testing_section(
        view.data.required_testing,
        view.data.as_of,
        view.data.present.get("required_testing"),
        view.data.judged,
    )


# --------------------------------------------------------------------------- discharges without a permit

PERMIT_FINDING_LABELS = {
    "permit_expired": "after the permit expired",
    "permit_not_yet_effective": "before the permit took effect",
    "never_permitted": "with no permit ever issued",
}


def permit_spells(days: pd.DataFrame) -> pd.DataFrame:
    """Consecutive days of one user and finding joined into one line: first and last day, days, samples,
    flow readings, the permit's dates and the rule."""
    if days.empty:
        return pd.DataFrame(
            columns=[
                "user_id",
                "name",
                "finding",
                "first_day",
                "last_day",
                "days",
                "samples",
                "flow_readings",
                "permit_no",
                "permit_effective",
                "permit_expires",
                "rule",
            ]
        )
    d = days.sort_values(["user_id", "finding", "day"]).copy()
    day = pd.to_datetime(d["day"])
    new = (
        (d["user_id"] != d["user_id"].shift())
        | (d["finding"] != d["finding"].shift())
        | (day.diff() != pd.Timedelta(days=1))
    )
    d["_spell"] = new.cumsum()
    agg = d.groupby("_spell").agg(
        user_id=("user_id", "first"),
        name=("name", "first"),
        finding=("finding", "first"),
        first_day=("day", "min"),
        last_day=("day", "max"),
        days=("day", "count"),
        samples=("samples", "sum"),
        flow_readings=("flow_readings", "sum"),
        permit_no=("permit_no", "first"),
        permit_effective=("permit_effective", "first"),
        permit_expires=("permit_expires", "first"),
        rule=("rule", "first"),
    )
    return agg.reset_index(drop=True)


def permit_parts(view: SewerView) -> list[str]:
    """The days each user discharged without a permit in effect, joined into spells, and the users whose
    permit term is not on file; the rules cited in full at the end."""
    data = view.data
    parts: list[str] = []
    if data.without_permit is None and data.permit_dates_missing is None:
        return parts
    rules = RuleNotes("rule-permits")
    parts.append(_permit_spells_table(data, rules))
    missing = _frame(data.permit_dates_missing)
    if not missing.empty:
        parts.append(
            "<h4>Permit term not on file (not judged)</h4>" + _permit_term_missing_table(missing, rules)
        )
    parts.append(rules.notes())
    return parts


def _permit_spells_table(data: SewerData, rules: RuleNotes) -> str:
    """The spells of days each user discharged without a permit in effect (or why there are none)."""
    spells = permit_spells(_frame(data.without_permit))
    if spells.empty:
        return judged_nothing(
            data.judged,
            "permits",
            "discharges_without_permit",
            data.present,
            "No sample or flow reading above 0 on a day its user's permit was not in effect.",
            what="samples or flow readings on days a permit was not in effect",
        )
    return table(spells, _permit_spell_cols(rules), row_class=lambda r: "row-bad")


def _permit_spell_cols(rules: RuleNotes) -> list[Col]:
    """The columns of the spells without a permit."""
    return [
        Col(
            "user_id",
            "User",
            width="22%",
            html=lambda r: named(r["user_id"], short_name(r["name"]), f"#user-{slug(r['user_id'])}"),
        ),
        Col("finding", "When", fmt=lambda v: PERMIT_FINDING_LABELS.get(v, v)),
        Col("first_day", "From", fmt=fmt_date, nowrap=True),
        Col("last_day", "To", fmt=fmt_date, nowrap=True),
        Col("days", "Days", num=True, fmt=fmt_num),
        Col("samples", "Samples", num=True, fmt=fmt_num),
        Col(
            "flow_readings",
            "Flow readings above 0",
            num=True,
            fmt=fmt_num,
            title="readings of flow above 0 (a probe's pH or temperature readings, and zero "
            "flow, are not a discharge)",
        ),
        Col(
            "permit_no",
            "Permit",
            html=lambda r: esc(
                f"{r['permit_no'] or ''} ({fmt_date(r['permit_effective']) or '…'}"
                f" to {fmt_date(r['permit_expires']) or '…'})"
            ),
        ),
        rules.col("rule", "Rule (section)"),
    ]


def _permit_term_missing_table(missing: pd.DataFrame, rules: RuleNotes) -> str:
    """The users whose permit term is not on file, so their days were not judged."""
    return table(
        missing,
        [
            Col("user_id", "User", html=lambda r: named(r["user_id"], r.get("name"))),
            Col("first_day", "Samples or readings from", fmt=fmt_date, nowrap=True),
            Col("last_day", "To", fmt=fmt_date, nowrap=True),
            Col("samples", "Samples", num=True, fmt=fmt_num),
            Col("flow_readings", "Flow readings above 0", num=True, fmt=fmt_num),
            Col("reason", "What to do"),
            rules.col("rule", "Reading"),
        ],
    )
