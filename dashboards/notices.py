"""The monthly notices of violation on the pages (contract 5.1), and the Town's follow-up of each
violation from its notice: which notices are mailed or still drafts, which cannot be sent and why,
the last day to correct, and for each violation its status, the days past that day and the most
the law allows (the letter carries only what goes to the recipient; this is the Town's record)."""

from __future__ import annotations

from typing import Any, Sequence

import pandas as pd

from dashboards.html import Col, badge, esc, fmt_date, fmt_num, fmt_usd, is_missing, note, table

STATUS_WORDS = {"draft": ("draft, not mailed", "warn"), "mailed": ("mailed", "good"),
                "withdrawn": ("withdrawn", "")}


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


def _ready(r: pd.Series) -> str:
    if bool(r.get("ready_to_send")):
        return badge("ready", "good")
    return badge("not ready", "bad") + " " + esc(r.get("not_ready_reason") or "")


def notices_table(frame: pd.DataFrame | None, kind: str, who: str) -> str:
    """The notices of one kind, newest month first."""
    if frame is None:
        return note("The notices have not been drafted yet (run Outfall).", "empty")
    rows = frame[frame["kind"] == kind] if not frame.empty else frame
    if rows.empty:
        return note("No month has a violation: no notice to send.", "info")
    mailed = int((rows["status"] == "mailed").sum())
    withdrawn = int((rows["status"] == "withdrawn").sum())
    not_ready = int((~rows["ready_to_send"].astype(bool) & (rows["status"] != "withdrawn")).sum())
    lead = note(esc(f"{len(rows)} notices: {mailed} mailed, {len(rows) - mailed - withdrawn} drafts, {withdrawn} "
                    f"withdrawn; {not_ready} not ready to send. A draft sets no deadline and accrues no penalty until "
                    f"its mailing is recorded in the notices mailed file."), "info")
    return lead + table(rows.sort_values(["period", "recipient_id"], ascending=[False, True]), [
        Col("recipient_id", who, nowrap=True), Col("recipient_name", "Name"),
        Col("period", "Month", nowrap=True), Col("violations", "Violations", num=True, fmt=fmt_num),
        Col("status", "Status", html=_status), Col("issued_on", "Mailed", nowrap=True, fmt=fmt_date),
        Col("certified_mail_no", "Certified mail no."),
        Col("correct_by", "Correct by", nowrap=True, fmt=fmt_date),
        Col("ready_to_send", "Ready to send", html=_ready), Col("letter", "Letter", html=_letter),
    ])


SEWER_FOLLOW_UP = {
    "draft": ("draft notice", "warn"), "pending": ("pending", ""), "overdue": ("overdue", "bad"),
    "corrected": ("corrected in time", "good"), "corrected_late": ("corrected late", "warn"),
    "not_corrected": ("not corrected", "bad"),
}


def sewer_follow_up(frame: pd.DataFrame | None) -> str:
    """Each violation's follow-up from its notice (table sewer_notices): status, days to correct,
    § 253-55 A days accrued and the most the law allows."""
    if frame is None or frame.empty:
        return note("No violation to follow up.", "info")

    def status(r: pd.Series) -> str:
        words, tone = SEWER_FOLLOW_UP.get(str(r.get("status")), (str(r.get("status")), ""))
        return badge(words, tone)

    return table(frame.sort_values(["collected_date", "user_id"], ascending=[False, True]), [
        Col("user_id", "User", nowrap=True), Col("sample_id", "Sample", nowrap=True), Col("parameter", "Parameter"),
        Col("collected_date", "Collected", nowrap=True, fmt=fmt_date),
        Col("notice_period", "Notice (month)", nowrap=True),
        Col("issued_on", "Mailed", nowrap=True, fmt=fmt_date),
        Col("correction_days", "Days to correct", num=True, fmt=fmt_num),
        Col("correct_by", "Correct by", nowrap=True, fmt=fmt_date),
        Col("status", "Status", html=status),
        Col("corrected_on", "Corrected on", nowrap=True, fmt=fmt_date),
        Col("violation_days", "Penalty days", num=True, fmt=fmt_num,
            title="Days counted under Woodbury Code ch. 253 § 253-55 A: from the day after the last day to correct"),
        Col("max_penalty_usd", "Most allowed (§ 253-55 A)", num=True, fmt=fmt_usd),
        Col("follow_up", "Follow-up"),
    ])


def stormwater_follow_up(frame: pd.DataFrame | None) -> str:
    """Each finding's follow-up from its monthly notice (table swppp_notices)."""
    if frame is None or frame.empty:
        return note("No finding to follow up.", "info")
    cols: Sequence[Col] = [
        Col("site_id", "Site", nowrap=True), Col("finding", "Finding"), Col("due_by", "Due by", nowrap=True, fmt=fmt_date),
        Col("status", "Finding status"), Col("notice_period", "Notice (month)", nowrap=True),
        Col("issued_on", "Mailed", nowrap=True, fmt=fmt_date),
        Col("remedial_due_by", "Correct by", nowrap=True, fmt=fmt_date),
        Col("violation_periods", "Penalty periods", num=True, fmt=fmt_num),
        Col("total_fine_max_usd", "Most allowed", num=True, fmt=fmt_usd),
    ]
    present = [c for c in cols if c.key in frame.columns]
    return table(frame.sort_values(["due_by", "site_id"], ascending=[False, True]), present)


