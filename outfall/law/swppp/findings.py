"""The other findings of the law, of the construction-site stormwater law (SWPPP).

Pure functions, no I/O; ``outfall.law.swppp`` (which names them all) gives the reading of the law they
follow."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from outfall.law.swppp.sites import (
    UTC,
    _acres,
    _days,
    _inspections_in_window,
    active_through,
    reading,
)

# --------------------------------------------------------------------------
# Other findings of the law


@dataclass(frozen=True)
class OtherFinding:
    """A violation other than a missed inspection.

    trigger_date: the day the obligation arose (construction start, the first
    inspection finding the trap half full, the milestone, first work, the
    inspection reported); due_by: the last day to comply; satisfied_on: the
    day it was complied with (late) or None (overdue)."""

    finding: str
    trigger_date: dt.date
    due_by: dt.date
    status: str  # late | overdue
    satisfied_on: dt.date | None
    days_late: int
    subject: str | None = None
    detail: str = ""


def disturbance_finding(
    disturbed_acres: float | None,
    start: dt.date,
    final_stabilization: dt.date | None,
    approvals: Iterable[tuple[float | None, dt.date | None]],
    as_of: dt.date,
    rules: Any,
) -> OtherFinding | None:
    """More than five acres disturbed at one time without an approved SWPPP allowing it.

    approvals: (approved_max_disturbed_acres, approved_on) of the site's SWPPP
    approvals. An approval allowing at least the disturbed acreage, dated on or
    before construction start, means no finding; dated later, the finding is
    ``late`` (satisfied on the approval's date). The limit in effect on construction start applies."""
    if rules.swppp.disturbance_limit is None:  # the law states no limit: not judged
        return None
    limit = float(rules.swppp.disturbance_limit.at(start).max_acres_without_approval)
    acres = float(disturbed_acres or 0.0)
    if acres <= limit or start > as_of:
        return None
    allowing = sorted(
        on for mx, on in approvals if mx is not None and on is not None and float(mx) >= acres and on <= as_of
    )
    if allowing and allowing[0] <= start:
        return None
    base = (
        f"{_acres(acres)} disturbed from {start.isoformat()}, more than the "
        f"{_acres(limit)} allowed at any one time without an approved SWPPP allowing more"
    )
    others = [
        (mx, on)
        for mx, on in approvals
        if on is not None and on <= as_of and mx is not None and float(mx) < acres
    ]
    if others:
        best = max(float(mx) for mx, _ in others)
        base += f" (the approved SWPPP allows {_acres(best)})"
    if allowing:
        sat = allowing[0]
        return OtherFinding(
            "disturbance_over_limit",
            start,
            start,
            "late",
            sat,
            (sat - start).days,
            None,
            base + f"; an approved SWPPP allowing it is dated {sat.isoformat()}",
        )
    end = active_through(final_stabilization, as_of)
    return OtherFinding(
        "disturbance_over_limit",
        start,
        start,
        "overdue",
        None,
        max((end - start).days, 0),
        None,
        base + "; no approved SWPPP allows it",
    )


def sediment_findings(
    readings: Sequence[tuple[dt.date | None, float | None]], start: dt.date, as_of: dt.date, rules: Any
) -> list[OtherFinding]:
    """Sediment traps at or above 50% of design capacity lost at one inspection
    and still at or above it at the next: one finding per episode, corrected
    (``late``) at the first later inspection below the threshold.

    readings: (inspected_on, sediment_capacity_lost_pct) in inspection-time
    order; a day's last reading stands for the day. The threshold is the one in
    effect on the inspection that finds the trap full; the reading of the rules
    on which inspection judges the cleanout, the one in effect on construction start."""
    cleanout = rules.swppp.sediment_cleanout
    if cleanout is None:  # the law states no clean-out: not judged
        return []
    with_reading = bool(reading(rules, "swppp_sediment_next_inspection_with_reading", start))
    per_day: dict[dt.date, float | None] = {}
    for day, pct in readings:
        if day is None or not (start <= day <= as_of):
            continue
        if pct is not None and isinstance(pct, float) and math.isnan(pct):
            pct = None
        if pct is None and with_reading:
            continue
        if pct is None and day in per_day:
            continue
        per_day[day] = pct
    rows = sorted(per_day.items())
    out: list[OtherFinding] = []
    i = 0
    while i < len(rows) - 1:
        (d1, p1), (d2, p2) = rows[i], rows[i + 1]
        threshold = float(cleanout.at(d1).capacity_lost_pct)

        def full(p: float | None, threshold: float = threshold) -> bool:
            return p is not None and float(p) >= threshold

        if not (full(p1) and full(p2)):
            i += 1
            continue
        k = i + 2
        while k < len(rows) and not (rows[k][1] is not None and float(rows[k][1]) < threshold):
            k += 1
        detail = (
            f"sediment traps had lost {float(p1):g}% of design capacity at the inspection of "
            f"{d1.isoformat()} and still {float(p2):g}% at the next, on {d2.isoformat()} (cleanout required "
            f"at {threshold:g}%)"
        )
        if k < len(rows):
            sat = rows[k][0]
            out.append(
                OtherFinding(
                    "sediment_not_removed",
                    d1,
                    d2,
                    "late",
                    sat,
                    (sat - d2).days,
                    None,
                    detail + f"; below {threshold:g}% on {sat.isoformat()}",
                )
            )
            i = k
        else:
            out.append(
                OtherFinding(
                    "sediment_not_removed",
                    d1,
                    d2,
                    "overdue",
                    None,
                    max((as_of - d2).days, 0),
                    None,
                    detail + "; no cleanout recorded since",
                )
            )
            break
    return out


def _local_time(value: Any) -> dt.time:
    if isinstance(value, dt.time):
        return value
    return dt.time.fromisoformat(str(value))


def milestone_notice_finding(
    milestone: str,
    occurs_on: dt.date,
    notified_at: dt.datetime | None,
    as_of: dt.date,
    rules: Any,
    occurs_at: dt.datetime | None = None,
    tz: str | None = None,
    label: str | None = None,
) -> OtherFinding | None:
    """A milestone inspection without the 48 hours' notice the law requires.

    The milestone occurs at ``occurs_at`` when known, else at the time of day
    of the reading ``swppp_milestone_time_when_only_dated`` (00:00) on
    occurs_on. Notice is in time when given at least 48 real hours before
    (computed in UTC, so a daylight-saving change does not shift it). A
    milestone after --as-of is not judged yet; a notice after --as-of is
    treated as not given. The notice period in effect on the milestone's day applies."""
    hours = float(rules.swppp.milestone_notice.at(occurs_on).hours)
    zone = ZoneInfo(tz or rules.timezone)  # local time: the jurisdiction's
    if occurs_at is None:
        at = _local_time(reading(rules, "swppp_milestone_time_when_only_dated", occurs_on))
        occurs_at = dt.datetime.combine(occurs_on, at, tzinfo=zone)
    elif occurs_at.tzinfo is None:
        occurs_at = occurs_at.replace(tzinfo=zone)
    occurs_local = occurs_at.astimezone(zone)
    occurs_day = occurs_local.date()
    if occurs_day > as_of:
        return None
    deadline = (occurs_at.astimezone(UTC) - dt.timedelta(hours=hours)).astimezone(zone)
    due = deadline.date()
    if notified_at is not None and notified_at.tzinfo is None:
        notified_at = notified_at.replace(tzinfo=zone)
    notified_local = notified_at.astimezone(zone) if notified_at is not None else None
    head = f"{label or milestone.replace('_', ' ')} on {occurs_day.isoformat()}"
    if notified_local is not None and notified_local.date() <= as_of:
        if notified_local <= deadline:
            return None
        ahead = (occurs_at - notified_local).total_seconds() / 3600.0
        when = (
            f"only {ahead:.0f} hours before"
            if ahead > 0
            else f"{-ahead:.0f} hours after the milestone"
            if ahead < 0
            else "at the milestone"
        )
        sat = notified_local.date()
        return OtherFinding(
            "milestone_notice_late",
            occurs_day,
            due,
            "late",
            sat,
            max((min(sat, occurs_day) - due).days, 0),
            milestone,
            f"{head}: notice given {notified_local.strftime('%Y-%m-%d %H:%M %Z')}, {when} "
            f"({hours:g} hours required; deadline {deadline.strftime('%Y-%m-%d %H:%M %Z')})",
        )
    return OtherFinding(
        "milestone_notice_late",
        occurs_day,
        due,
        "overdue",
        None,
        max((occurs_day - due).days, 0),
        milestone,
        f"{head}: no notice given ({hours:g} hours required; deadline "
        f"{deadline.strftime('%Y-%m-%d %H:%M %Z')})",
    )


def certification_finding(
    contractor: str,
    signed_on: dt.date | None,
    first_work_on: dt.date,
    final_stabilization: dt.date | None,
    as_of: dt.date,
    rules: Any,
) -> OtherFinding | None:
    """A contractor working before signing the SWPPP certification statement."""
    if first_work_on > as_of or rules.swppp.contractor_certification is None:
        return None
    same_day = bool(reading(rules, "swppp_certification_same_day_counts_as_before", first_work_on))
    due = first_work_on if same_day else first_work_on - dt.timedelta(days=1)
    if signed_on is not None and signed_on <= as_of:
        if signed_on <= due:
            return None
        return OtherFinding(
            "contractor_not_certified",
            first_work_on,
            due,
            "late",
            signed_on,
            (signed_on - due).days,
            contractor,
            f"{contractor} began work on {first_work_on.isoformat()} and signed the SWPPP "
            f"certification on {signed_on.isoformat()}",
        )
    end = active_through(final_stabilization, as_of)
    return OtherFinding(
        "contractor_not_certified",
        first_work_on,
        due,
        "overdue",
        None,
        max((end - due).days, 0),
        contractor,
        f"{contractor} began work on {first_work_on.isoformat()} and has not signed the SWPPP certification",
    )


def _report_days(
    inspection_dates: Iterable[dt.date | None],
    deliveries: Mapping[dt.date, Iterable[dt.date | None]],
    start: dt.date,
    final_stabilization: dt.date | None,
    as_of: dt.date,
    rules: Any,
) -> Iterable[tuple[dt.date, dt.date, list[dt.date]]]:
    """Each inspection report the rules ask to deliver (none without ``report_delivery``): (the
    inspection's day, the last day to deliver its report by the delivery period in effect on the
    inspection's day, the days it was delivered on or before ``as_of``, earliest first)."""
    spec = rules.swppp.report_delivery
    if spec is None:
        return
    for day in _inspections_in_window(inspection_dates, start, active_through(final_stabilization, as_of)):
        due = day + _days(spec.at(day).max_days_after_inspection)
        yield day, due, sorted(d for d in deliveries.get(day, ()) if d is not None and d <= as_of)


def report_delivery_findings(
    inspection_dates: Iterable[dt.date | None],
    deliveries: Mapping[dt.date, Iterable[dt.date | None]],
    start: dt.date,
    final_stabilization: dt.date | None,
    as_of: dt.date,
    rules: Any,
) -> list[OtherFinding]:
    """Inspection reports not delivered to the Stormwater Management Officer
    within the week (none where the rules have no ``report_delivery``).

    deliveries: report (inspection) date -> the dates it was delivered. The
    delivery period in effect on the inspection's day applies."""
    out: list[OtherFinding] = []
    for day, due, got in _report_days(inspection_dates, deliveries, start, final_stabilization, as_of, rules):
        if got and got[0] <= due:
            continue
        if got:
            out.append(
                OtherFinding(
                    "report_not_delivered",
                    day,
                    due,
                    "late",
                    got[0],
                    (got[0] - due).days,
                    None,
                    f"report of the inspection of {day.isoformat()} delivered {got[0].isoformat()}",
                )
            )
        elif due < as_of:
            out.append(
                OtherFinding(
                    "report_not_delivered",
                    day,
                    due,
                    "overdue",
                    None,
                    (as_of - due).days,
                    None,
                    f"report of the inspection of {day.isoformat()} not delivered",
                )
            )
    return out


def reports_awaited(
    inspection_dates: Iterable[dt.date | None],
    deliveries: Mapping[dt.date, Iterable[dt.date | None]],
    start: dt.date,
    final_stabilization: dt.date | None,
    as_of: dt.date,
    rules: Any,
) -> list[tuple[dt.date, dt.date]]:
    """The inspection reports the Stormwater Management Officer is still waiting for on ``as_of``: (the
    inspection's day, the last day to deliver its report) for each inspection whose report is not
    delivered and whose period to deliver it has not passed (none where the rules have no
    ``report_delivery``). Each recorded inspection creates this duty of the applicant's; once its period
    passes undelivered it is a finding of ``report_delivery_findings`` instead."""
    days = _report_days(inspection_dates, deliveries, start, final_stabilization, as_of, rules)
    return [(day, due) for day, due, got in days if not got and due >= as_of]
