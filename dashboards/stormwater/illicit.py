"""The stormwater page's illicit discharge cases (contract 5.3): each case, its deadlines and charges."""

from __future__ import annotations

from typing import Any

import pandas as pd

from dashboards.html import (
    Col,
    RuleNotes,
    as_frame,
    badge,
    esc,
    fmt_date,
    fmt_num,
    fmt_usd,
    is_missing,
    join,
    law_cited,
    no_data,
    none_note,
    section,
    table,
)
from dashboards.stormwater.data import StormwaterData

# The deadlines of an illicit discharge case that are the Town's own acts (the officer's worklist); the
# others are the responsible party's (notify, confirm, abate, appeal, protest).
TOWN_ACTS = ("appeal_hearing", "cost_notice")


def overdue_deadlines(deadlines: pd.DataFrame) -> pd.DataFrame:
    """The deadlines of the cases overdue on the day judged: the list the card counts."""
    return deadlines[deadlines["status"] == "overdue"] if not deadlines.empty else deadlines


# --------------------------------------------------------------------------- contract 5.3 and 5.4

OBLIGATION_LABELS = {
    "notify_town": "Notice of the release to the municipality",
    "written_confirmation": "Written confirmation of a notice given in person or by phone",
    "appeal": "Notice of appeal received",
    "appeal_hearing": "Hearing on the appeal",
    "abatement": "Abatement or restoration",
    "cost_notice": "Notice of the cost of abatement to the owner",
    "protest": "Written protest of the cost",
}
SMP_LABELS = {
    "as_built": "As-built plans certified by a professional engineer",
    "maintenance_agreement": "Maintenance agreement recorded before final plan approval",
    "one_year_inspection": "Inspection one year after final acceptance",
    "guarantee_release": "Construction completion guarantee released too early",
}
# suspended: the abatement of an illicit discharge case while an appeal is pending (the illicit discharge law)
DEADLINE_TONE = {"overdue": "bad", "late": "warn", "open": "info", "suspended": "info", "met": "good"}
DEADLINE_WORDS = {
    "overdue": "Overdue",
    "late": "Late",
    "open": "Open",
    "suspended": "Suspended",
    "met": "Met",
}
DEADLINE_ORDER = {"overdue": 0, "open": 1, "suspended": 2, "late": 3, "met": 4}


def _status_badge(value: Any) -> str:
    return badge(DEADLINE_WORDS.get(str(value), str(value)), DEADLINE_TONE.get(str(value), ""))


def _case_letters(data: StormwaterData, case_id: Any) -> str:
    letters = as_frame(data.illicit_letters)
    if letters.empty:
        return ""
    links = []
    for _, letter in letters[letters["case_id"] == case_id].iterrows():
        label = {"notice_of_violation": "notice of violation", "cost_notice": "notice of the cost"}.get(
            str(letter["kind"]), str(letter["kind"]).replace("_", " ")
        )
        if bool(letter.get("draft")):
            label += " (draft)"
        href = data.letters.get(str(letter.get("letter_file") or ""))
        links.append(f'<a href="{esc(href)}">{esc(label)}</a>' if href else esc(label))
    return ", ".join(links)


def _cases(data: StormwaterData) -> pd.DataFrame:
    """Each case with its worst deadline (the one to act on first) and the balance owed."""
    c = as_frame(data.illicit_cases).copy()
    deadlines, charges = as_frame(data.illicit_deadlines), as_frame(data.illicit_charges)
    if not deadlines.empty:
        d = deadlines.assign(_o=deadlines["status"].map(DEADLINE_ORDER).fillna(9))
        worst = d.sort_values(["_o", "due"]).drop_duplicates("case_id").set_index("case_id")
        c["status"] = c["case_id"].map(worst["status"])
        c["next"] = c["case_id"].map(worst["obligation"])
        c["next_due"] = c["case_id"].map(worst["due"])
    else:
        c["status"] = c["next"] = c["next_due"] = None
    c["balance_usd"] = (
        c["case_id"].map(charges.set_index("case_id")["balance_usd"]) if not charges.empty else None
    )
    c["_o"] = c["status"].map(DEADLINE_ORDER).fillna(9)
    return c.sort_values(["_o", "discovered_on", "case_id"])


def _cases_table(data: StormwaterData) -> str:
    cases = as_frame(data.illicit_cases)
    if data.illicit_cases is None or cases.empty:
        return no_data(
            "illicit_discharges", data.present.get("illicit_discharges"), "illicit discharge cases"
        )
    return table(
        _cases(data),
        [
            Col("case_id", "Case", nowrap=True),
            Col("premises", "Premises"),
            Col("discovered_on", "Discovered", fmt=fmt_date, nowrap=True),
            Col("description", "What was found"),
            Col(
                "status",
                "Worst deadline",
                html=lambda r: (
                    _status_badge(r["status"])
                    if not is_missing(r["status"])
                    else (
                        '<a href="quarantine.html">not judged: see the quarantined rows</a>'
                        if str(r["case_id"]) in data.illicit_set_aside
                        else esc("no deadline yet")
                    )
                ),
            ),
            Col(
                "next",
                "Of",
                html=lambda r: (
                    esc(OBLIGATION_LABELS.get(r["next"], r["next"]))
                    + (
                        f"<br><small>due {esc(fmt_date(r['next_due']))}</small>"
                        if not is_missing(r["next_due"])
                        else ""
                    )
                ),
            ),
            Col("balance_usd", "Balance owed", num=True, fmt=fmt_usd),
            Col("case_id", "Letters", html=lambda r: _case_letters(data, r["case_id"])),
        ],
        row_class=lambda r: {"overdue": "row-bad", "late": "row-warn"}.get(str(r["status"]), ""),
    )


def illicit_section(data: StormwaterData) -> str:
    """Illicit discharge cases, their deadlines and charges (the illicit discharge law); where the rules state
    none, why not (contract 8.6)."""
    if not data.judged.judged("illicit"):
        return section(
            "Illicit discharges to the storm drain system",
            none_note(data.judged, "illicit", "No illicit discharge case is on file."),
            sid="illicit",
        )
    deadlines, charges = as_frame(data.illicit_deadlines), as_frame(data.illicit_charges)
    rules = RuleNotes("rule-illicit")
    parts = [_cases_table(data)]
    overdue = overdue_deadlines(deadlines)
    if not overdue.empty:
        parts.append(
            f'<div id="illicit-overdue"><h3>Deadlines overdue ({len(overdue)})</h3>'
            + _deadlines_table(overdue, rules)
            + "</div>"
        )
    rest = deadlines.drop(index=overdue.index) if not deadlines.empty else deadlines
    if not rest.empty:
        parts.append("<h3>The other deadlines of the cases</h3>" + _deadlines_table(rest, rules))
    if not charges.empty:
        parts.append(
            f"<h3>Cost of abatement by the {esc(data.municipality)}, payments and interest</h3>"
            + _charges_table(charges, rules)
        )
    parts.append(rules.notes())
    return section(
        "Illicit discharges to the storm drain system",
        join(parts),
        sid="illicit",
        lead=esc(
            f"{law_cited(data.laws, 'illicit_discharges')}: each case with its worst deadline first; the "
            "deadlines that were met are listed too. Business days leave out weekends and the public holidays"
            + (f" of {data.holiday_law}" if data.holiday_law else "")
            + "; "
            + (
                "a period to appeal, abate or protest that ends on a weekend or holiday ends on the next "
                f"business day ({data.deadline_law}). "
                if data.deadline_law
                else ""
            )
            + "While an appeal received in time is pending the abatement is suspended; the penalty is not. "
            "An appeal received late is no appeal: nothing is suspended and no hearing is held on it."
        ),
    )


def _deadlines_table(deadlines: pd.DataFrame, rules: RuleNotes) -> str:
    """The deadlines of the illicit discharge cases, the worst first."""
    d = deadlines.assign(_o=deadlines["status"].map(DEADLINE_ORDER).fillna(9))
    return table(
        d.sort_values(["_o", "due", "case_id"]),
        [
            Col("case_id", "Case", nowrap=True),
            Col("obligation", "Obligation", fmt=lambda v: OBLIGATION_LABELS.get(v, v)),
            Col(
                "due",
                "Due",
                html=lambda r: (
                    esc("none while the appeal is pending")
                    if str(r["status"]) == "suspended"
                    else esc(fmt_date(r["due"]))
                ),
                nowrap=True,
            ),
            Col("status", "Status", html=lambda r: _status_badge(r["status"])),
            Col("satisfied_on", "Done on", fmt=fmt_date, nowrap=True),
            Col("days_late", "Days late", num=True, fmt=fmt_num),
            rules.col("rule", "Rule (section)", limit=45),
        ],
        row_class=lambda r: {"overdue": "row-bad", "late": "row-warn"}.get(str(r["status"]), ""),
    )


def _charges_table(charges: pd.DataFrame, rules: RuleNotes) -> str:
    """The cost of abatement charged to each case, its payments, interest and balance."""
    return table(
        charges,
        [
            Col("case_id", "Case", nowrap=True),
            Col("principal_usd", "Cost", num=True, fmt=fmt_usd),
            Col(
                "installment_usd",
                "Payments",
                html=lambda r: esc(
                    f"{int(r['installments']) - 1} x {fmt_usd(r['installment_usd'])} + "
                    f"{fmt_usd(r['last_installment_usd'])}"
                ),
            ),
            Col("interest_from", "Interest from", fmt=fmt_date, nowrap=True),
            Col("interest_usd", "Interest to date", num=True, fmt=fmt_usd),
            Col("paid_usd", "Paid", num=True, fmt=fmt_usd),
            Col("balance_usd", "Balance", num=True, fmt=fmt_usd),
            Col(
                "max_penalty_usd",
                "Largest criminal penalty",
                num=True,
                fmt=fmt_usd,
                title="for each day from discovery through abatement, the days an appeal was pending "
                "included (none after the notice of violation when the appeal vacated it)",
            ),
            rules.col("rule", "Rule (section)", limit=45),
        ],
    )
