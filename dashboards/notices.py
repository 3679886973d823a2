"""The monthly notices of violation on the pages (contract 5.1 and 6.1), and the municipality's follow-up
of each violation from its notice: which notices are mailed or still drafts, which cannot be sent and why,
the last day to correct, and for each violation on a mailed notice its status, the days past that day and
the most the law allows (the letter carries only what goes to the recipient; this is the municipality's
record). A statement that there is none goes through the one helper of "none" (``Judged``, contract 8.6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from dashboards.html import (
    Col,
    RuleNotes,
    badge,
    esc,
    fmt_date,
    fmt_num,
    fmt_usd,
    is_missing,
    month_words,
    months_words,
    named,
    none_note,
    note,
    noun,
    short_name,
    slug,
    table,
)
from outfall.rules.judged import Judged

STATUS_WORDS = {
    "draft": ("draft, not mailed", "warn"),
    "mailed": ("mailed", "good"),
    "withdrawn": ("withdrawn", ""),
}
# what a stormwater finding is, in words (swppp_inspection_findings.requirement, swppp_other_findings.finding)
FINDING_WORDS = {
    "weekly": "weekly inspection",
    "storm": "inspection after a storm",
    "report_not_delivered": "inspection report not delivered in time",
    "disturbance_over_limit": "more land disturbed than allowed",
    "milestone_notice_late": "milestone notice given late",
    "contractor_not_certified": "contractor not certified",
    "sediment_not_removed": "sediment not removed",
}
PENALTY_PER = {"day": ("day", "days"), "week": ("week", "weeks")}


def finding_words(value: Any) -> str:
    return FINDING_WORDS.get(str(value), str(value).replace("_", " "))


def period_words(period: Any) -> str:
    """A notice's month, 'YYYY-MM', in words: 'March 2026'."""
    if is_missing(period):
        return ""
    try:
        return month_words(pd.Timestamp(f"{period}-01"))
    except ValueError:
        return str(period)


def _status(r: pd.Series) -> str:
    words, tone = STATUS_WORDS.get(str(r.get("status")), (str(r.get("status")), ""))
    out = badge(words, tone)
    if bool(r.get("needs_review")):
        out += " " + badge("review: the data no longer show every violation it lists", "bad")
    if str(r.get("status")) == "withdrawn" and not is_missing(r.get("withdrawn_reason")):
        out += " " + esc(r.get("withdrawn_reason"))
    return out


def _letter(r: pd.Series) -> str:
    path = r.get("letter")
    return f'<a href="{esc(path)}">letter</a>' if not is_missing(path) else ""


def _ready(r: pd.Series, reasons: RuleNotes) -> str:
    """Whether the recipient's address is complete (what ``ready_to_send`` judges): a draft's letter says
    NOT READY TO MAIL until its mailing is recorded, so the page does not call a draft 'ready'."""
    if str(r.get("status")) == "withdrawn":
        return ""
    if bool(r.get("ready_to_send")):
        return badge("complete", "good")
    return badge("incomplete", "bad") + reasons.mark(r.get("not_ready_reason"))


def _mailed(r: pd.Series) -> str:
    if is_missing(r.get("issued_on")):
        return ""
    number = r.get("certified_mail_no")
    return esc(fmt_date(r["issued_on"])) + (
        f"<br><small>certified mail {esc(number)}</small>" if not is_missing(number) else ""
    )


# what a notice lists (notice_items.item), one and many
ITEM_WORDS = {
    "sample": ("single sample", "single samples"),
    "excursion": ("excursion of continuous readings", "excursions of continuous readings"),
    "daily_max": ("daily maximum", "daily maximums"),
    "monthly_avg": ("monthly average", "monthly averages"),
    "no_permit": ("month of discharging without a permit", "months of discharging without a permit"),
    "late_report": (
        "report or notice owed by the user and late or missing",
        "reports or notices owed by the user and late or missing",
    ),
    "missed_testing": ("period of required testing missed", "periods of required testing missed"),
    "inspection": ("inspection late or not made", "inspections late or not made"),
    "other": ("other finding", "other findings"),
}


def items_words(items: pd.DataFrame | None, kind: str) -> str:
    """'183 single samples, 10 monthly averages and 4 periods of required testing missed'."""
    if items is None or items.empty:
        return ""
    rows = items[items["kind"] == kind]
    parts = []
    for item, n in zip(rows["item"], rows["items"]):
        one, many = ITEM_WORDS.get(str(item), (str(item).replace("_", " "),) * 2)
        parts.append(f"{int(n):,} {one if int(n) == 1 else many}")
    if len(parts) > 1:
        parts = parts[:-2] + [f"{parts[-2]} and {parts[-1]}"]
    return ", ".join(parts)


def _notices_lead(rows: pd.DataFrame, kind: str, who: str, items: pd.DataFrame | None) -> str:
    """What the notices of one kind are, in counts: mailed, drafts, withdrawn, drafts whose address is
    incomplete, and the violations they list."""
    mailed = int((rows["status"] == "mailed").sum())
    withdrawn = int((rows["status"] == "withdrawn").sum())
    incomplete = (
        rows["address_missing"].notna()
        if "address_missing" in rows
        else ~rows["ready_to_send"].fillna(False).astype(bool)
    )
    not_ready = int((incomplete & (rows["status"] == "draft")).sum())
    drafts = len(rows) - mailed - withdrawn
    months = pd.to_datetime(rows["period"].astype(str) + "-01", errors="coerce")
    span = months_words(months.min(), months.max())
    listed = items_words(items, kind)
    return note(
        esc(
            f"{len(rows)} {noun(len(rows), 'notice')}, one per {who.lower()} and month with a violation, "
            f"{span}: {mailed} mailed, {drafts} {noun(drafts, 'draft')}, {withdrawn} withdrawn; {not_ready} "
            f"{noun(not_ready, 'draft')} whose recipient's address is incomplete. They list "
            f"{fmt_num(rows['violations'].sum())} violations"
            + (f": {listed}" if listed else "")
            + ". A draft sets no deadline and accrues no penalty until its mailing is recorded in the "
            "notices mailed file; until then its letter says NOT READY TO MAIL."
        ),
        "info",
    )


def notices_table(
    frame: pd.DataFrame | None,
    kind: str,
    who: str,
    names: Mapping[Any, Any] | None = None,
    items: pd.DataFrame | None = None,
    *,
    judged: Judged | None = None,
    found: int = 0,
) -> str:
    """The notices of one kind, newest month first; each recipient by id and name (``names``: id -> name,
    else the name the notice is addressed to). ``items``: what the notices list, counted by kind of item
    (kind, item, items), said in the lead so that their count is not read as the count of another panel.
    ``judged``: what the rules judge (a notice of a kind they do not say how to issue is not drafted);
    ``found``: the violations of the kind the page lists."""
    if frame is None:
        return note("The notices have not been drafted yet (run Outfall).", "empty")
    rows = frame[frame["kind"] == kind] if not frame.empty else frame
    if rows.empty:
        return no_notice(judged or Judged(), kind, found)
    names = names or {}
    lead = _notices_lead(rows, kind, who, items)

    def recipient(r: dict) -> str:
        name = names.get(r["recipient_id"])
        cell = named(r["recipient_id"], short_name(name if name is not None else r.get("recipient_name")))
        if name is not None and not is_missing(r.get("recipient_name")) and r.get("recipient_name") != name:
            cell += f"<br><small>to {esc(r['recipient_name'])}</small>"
        return cell

    reasons = RuleNotes(f"not-ready-{kind}")
    listed = table(
        rows.sort_values(["period", "recipient_id"], ascending=[False, True]),
        [
            Col("recipient_id", who, html=recipient, width="28%"),
            Col("period", "Month", nowrap=True, fmt=period_words),
            Col("violations", "Violations", num=True, fmt=fmt_num),
            Col("status", "Status", html=_status),
            Col("issued_on", "Mailed", nowrap=True, html=_mailed),
            Col("correct_by", "Correct by", nowrap=True, fmt=fmt_date),
            Col("ready_to_send", "Address", nowrap=True, html=lambda r: _ready(r, reasons)),
            Col("letter", "Letter", html=_letter),
        ],
    )
    return lead + listed + reasons.notes("What the address lacks")


#: The duty of the rules that says how a notice of each kind is issued.
NOTICE_DUTY = {"sewer": "sewer_notices", "stormwater": "stormwater_notices"}


#: What a page says where no month has a violation of a kind (a statement of none, through ``none_note``).
NO_NOTICE = {
    "sewer": "No month has a violation: no notice to send.",
    "stormwater": "No site has a finding in a month: no notice to send.",
}


def no_notice(judged: Judged, kind: str, found: int) -> str:
    """Why a page lists no notice of a kind: the rules do not say how to issue one (the violations found are
    listed without a notice), or no month has a violation (a statement of none, through ``none_note``)."""
    duty = NOTICE_DUTY[kind]
    if not judged.judged(duty):
        listed = (
            f": the {fmt_num(found)} {noun(found, 'violation')} found are listed without a notice"
            if found
            else ""
        )
        return note(esc(f"{judged.reason(duty)}; no notice is drafted{listed}."), "warn")
    if found:
        return note(
            esc(f"No notice is drafted of the {fmt_num(found)} {noun(found, 'violation')} listed."), "info"
        )
    return none_note(judged, duty, NO_NOTICE[kind])


SEWER_FOLLOW_UP = {
    "draft": ("draft notice", "warn"),
    "pending": ("within the period to correct", ""),
    "overdue": ("overdue", "bad"),
    "corrected": ("corrected in time", "good"),
    "corrected_late": ("corrected late", "warn"),
    "not_corrected": ("not corrected", "bad"),
}


def sewer_follow_up(
    frame: pd.DataFrame | None,
    names: Mapping[Any, Any] | None = None,
    penalty_law: str = "the penalty section of the sewer use law",
    *,
    judged: Judged | None = None,
) -> str:
    """The follow-up of each violation on a mailed notice (table sewer_notices): its status, the days to
    correct, the penalty days accrued (``penalty_law``: the section that counts them) and the most the law
    allows, the follow-up in words on a second line.
    The violations on drafts and withdrawn notices are counted in a note (they have no period to correct and
    accrue no penalty; the violations table names each one's notice)."""
    if frame is None or frame.empty:
        return none_note(judged or Judged(), "sewer_notices", "No violation to follow up.")
    names = names or {}
    mailed = frame[frame["notice_status"] == "mailed"] if "notice_status" in frame else frame
    rest = frame.drop(index=mailed.index)
    lead = _unmailed_note(frame, rest)
    if mailed.empty:
        return lead + note("No violation is on a mailed notice yet.", "info")
    return lead + table(
        mailed.sort_values(["collected_date", "user_id"], ascending=[False, True]),
        _follow_up_cols(names, penalty_law),
        detail=lambda r: esc(r.get("follow_up") or ""),
    )


def _unmailed_note(frame: pd.DataFrame, rest: pd.DataFrame) -> str:
    """A note counting the violations on notices not mailed (drafts, withdrawn), by notice status."""
    if rest.empty:
        return ""
    counts = rest.groupby(rest["notice_status"].fillna("none")).agg(
        violations=("sample_id", "size"),
        notices=("notice_period", lambda p: len(set(zip(rest.loc[p.index, "user_id"], p)))),
    )
    words = "; ".join(
        f"{int(c['violations'])} on {int(c['notices'])} "
        f"{'withdrawn' if s == 'withdrawn' else 'draft' if s == 'draft' else s} notice"
        f"{'s' if int(c['notices']) != 1 else ''}"
        for s, c in counts.iterrows()
    )
    return note(
        esc(
            f"{len(rest)} of the {len(frame)} violations are on notices not mailed ({words}): no period "
            f"to correct has started and no penalty accrues. The violations table above names each "
            f"one's notice."
        ),
        "info",
    )


def _follow_up_status(r: pd.Series) -> str:
    """A violation's follow-up status as a badge."""
    words, tone = SEWER_FOLLOW_UP.get(str(r.get("status")), (str(r.get("status")), ""))
    return badge(words, tone)


def _follow_up_cols(names: Mapping[Any, Any], penalty_law: str) -> list[Col]:
    """The columns of the follow-up table (``penalty_law``: the section that counts the penalty days)."""
    return [
        Col(
            "user_id",
            "User",
            width="22%",
            html=lambda r: named(
                r["user_id"], names.get(r["user_id"], r.get("name")), f"#user-{slug(r['user_id'])}"
            ),
        ),
        Col("sample_id", "Sample", nowrap=True),
        Col("parameter", "Parameter", fmt=lambda v: str(v).replace("_", " ")),
        Col("collected_date", "Collected", nowrap=True, fmt=fmt_date),
        Col("notice_period", "Notice of", nowrap=True, fmt=period_words),
        Col("issued_on", "Mailed", nowrap=True, fmt=fmt_date),
        Col("correction_days", "Days to correct", num=True, fmt=fmt_num),
        Col("correct_by", "Correct by", nowrap=True, fmt=fmt_date),
        Col("status", "Status", html=_follow_up_status),
        Col("corrected_on", "Corrected on", nowrap=True, fmt=fmt_date),
        Col(
            "violation_days",
            "Days of penalty",
            num=True,
            fmt=fmt_num,
            title=f"Days counted under {penalty_law}: from the day after the last day to correct",
        ),
        Col("max_penalty_usd", f"Most allowed ({penalty_law})", num=True, fmt=fmt_usd),
    ]


def _penalty_periods(r: dict) -> str:
    n = r.get("violation_periods")
    if is_missing(n):
        return ""
    one, many = PENALTY_PER.get(str(r.get("penalty_per")), ("period", "periods"))
    return f"{int(n)} {one if int(n) == 1 else many}"


def stormwater_follow_up(
    frame: pd.DataFrame | None, names: Mapping[Any, Any] | None = None, *, judged: Judged | None = None
) -> str:
    """Each finding and its monthly notice (table swppp_notices), with the days (or weeks) of penalty
    counted."""
    if frame is None or frame.empty:
        return none_note(judged or Judged(), "stormwater_notices", "No finding to follow up.")
    names = names or {}
    cols: Sequence[Col] = [
        Col(
            "site_id",
            "Site",
            width="26%",
            html=lambda r: named(r["site_id"], names.get(r["site_id"]), f"#site-{slug(r['site_id'])}"),
        ),
        Col("finding", "Finding", fmt=finding_words),
        Col("due_by", "Due by", nowrap=True, fmt=fmt_date),
        Col(
            "status",
            "Finding status",
            html=lambda r: badge(
                str(r["status"]).capitalize(), "bad" if r["status"] == "overdue" else "warn"
            ),
        ),
        Col("notice_period", "Notice of", nowrap=True, fmt=period_words),
        Col("issued_on", "Mailed", nowrap=True, fmt=fmt_date),
        Col("remedial_due_by", "Correct by", nowrap=True, fmt=fmt_date),
        Col(
            "violation_periods",
            "Days (or weeks) of penalty",
            num=True,
            html=lambda r: esc(_penalty_periods(r)),
            title="counted from the day after the day to correct, in the unit the law sets (each day or each "
            "week a violation continues is a separate violation)",
        ),
        Col("total_fine_max_usd", "Most allowed", num=True, fmt=fmt_usd),
    ]
    present = [c for c in cols if c.key in frame.columns]
    return table(frame.sort_values(["due_by", "site_id"], ascending=[False, True]), present)
