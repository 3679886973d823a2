"""Enforcement arithmetic of the sewer use law and 40 CFR 403, as pure functions.

What must follow a violation, and by when:

- deadlines count calendar days: weekends and holidays count like any other
  day (no business-day rule appears in the sewer use law or 40 CFR 403.8/403.12
  for these deadlines), but a period within which the user must act that ends
  on a Saturday, Sunday or public holiday ends on the next business day
  (New York General Construction Law § 25-a: ``period_end``, given by the
  caller from the rules' ``deadline_extension``), so a 15-day statement due on
  a Saturday is due the Monday after;
- a deadline is ``met`` when satisfied on or before its due day, ``late`` when
  satisfied after it, ``open`` while unsatisfied and not yet past due (the due
  day itself included: it is not over on --as-of), ``overdue`` once the due day
  is before --as-of; anything dated after --as-of has not happened yet;
- significant noncompliance (40 CFR 403.8(f)(2)(viii)), per user, parameter and
  calendar half-year: ``chronic`` when the results that break the limit are 66%
  or more of the measurements, ``trc`` when the results equal to or above the
  limit x 1.4 (BOD, TSS, FOG) or x 1.2 (others) are 33% or more, pH never by
  TRC, non-detects never. Percent thresholds are compared in exact arithmetic
  (count x 100 >= pct x measurements), the TRC product in decimals;
- a report is ``late_report`` when received more than 45 days after its due
  date (not received: the days from its due date to --as-of);
- surcharges are ``outfall/law/surcharges.py``;
- the sewer use law's penalties (the rules' ``penalties.sewer_use``): a fine, or imprisonment, or both,
  and a civil penalty, for each violation, each day a separate violation.

Every number comes in as an argument: a version of a section of
the town's rules file (``rules.snc.at(day)``, ``rules.notices.sewer_correction.at(day)``)
or a value read from one. Nothing here is a law number.
"""

from __future__ import annotations

import calendar
import datetime as dt
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any
from zoneinfo import ZoneInfo

# ------------------------------------------------------------------ calendar

MET, LATE, OPEN, OVERDUE = "met", "late", "open", "overdue"
STATUSES = (MET, LATE, OPEN, OVERDUE)


def add_days(day: dt.date, days: int) -> dt.date:
    """``day`` + ``days`` calendar days (weekends and holidays count)."""
    return day + dt.timedelta(days=int(days))


def add_months(day: dt.date, months: int) -> dt.date:
    """The same day ``months`` calendar months later, clamped to the month's end
    (Aug 31 + 6 months = Feb 28/29)."""
    index = day.year * 12 + (day.month - 1) + int(months)
    year, month = divmod(index, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return dt.date(year, month + 1, min(day.day, last))


def hours_as_days(hours: float) -> int:
    """A deadline in hours counted on dates: 24 hours -> by the next day."""
    return max(0, math.ceil(float(hours) / 24.0))


def half_year(day: dt.date, months: int) -> tuple[dt.date, dt.date]:
    """The period of ``months`` months (6: January-June, July-December) holding ``day``."""
    if months <= 0 or 12 % months:
        raise ValueError(f"a period of {months} months does not divide the calendar year")
    first_month = ((day.month - 1) // months) * months + 1
    start = dt.date(day.year, first_month, 1)
    end = add_months(start, months) - dt.timedelta(days=1)
    return start, end


def month_bounds(day: dt.date) -> tuple[dt.date, dt.date]:
    start = day.replace(day=1)
    return start, dt.date(day.year, day.month, calendar.monthrange(day.year, day.month)[1])


def month_minutes(month_start: dt.date, tz: str) -> float:
    """Minutes from the local start of the month to the local start of the next
    (a month with a daylight-saving change has an hour more or less)."""
    zone = ZoneInfo(tz)
    start = dt.datetime.combine(month_start.replace(day=1), dt.time(), zone)
    nxt = add_months(month_start.replace(day=1), 1)
    end = dt.datetime.combine(nxt, dt.time(), zone)
    return (end.astimezone(dt.UTC) - start.astimezone(dt.UTC)).total_seconds() / 60.0


def seen(day: dt.date | None, as_of: dt.date) -> dt.date | None:
    """A date that has happened by --as-of (later dates have not happened yet)."""
    return day if day is not None and day <= as_of else None


def deadline_status(due: dt.date, satisfied_on: dt.date | None, as_of: dt.date) -> str:
    """met / late / open / overdue of one deadline, judged on --as-of."""
    done = seen(satisfied_on, as_of)
    if done is not None:
        return MET if done <= due else LATE
    return OVERDUE if due < as_of else OPEN


def days_late(due: dt.date, satisfied_on: dt.date | None, as_of: dt.date) -> int | None:
    """Days past due: of the satisfaction when late, of --as-of when overdue, else None."""
    status = deadline_status(due, satisfied_on, as_of)
    if status == LATE:
        return (satisfied_on - due).days  # type: ignore[operator]
    if status == OVERDUE:
        return (as_of - due).days
    return None


@dataclass(frozen=True)
class Deadline:
    """One obligation: what must be done by when, and whether it was."""

    trigger_date: dt.date
    due: dt.date
    satisfied_on: dt.date | None
    status: str
    days_late: int | None


PeriodEnd = Callable[[dt.date], dt.date]
"""The last day of a period that would end on a day: the day itself, or the next business day when the day
is a Saturday, Sunday or public holiday (GCL § 25-a, as the rules give it)."""


def deadline(
    trigger_date: dt.date,
    days: int,
    satisfied_on: dt.date | None,
    as_of: dt.date,
    period_end: PeriodEnd | None = None,
) -> Deadline:
    """A deadline ``days`` calendar days after ``trigger_date`` (moved off a weekend or holiday by
    ``period_end`` when given)."""
    due = add_days(trigger_date, days)
    return dated_deadline(trigger_date, due, satisfied_on, as_of, period_end)


def dated_deadline(
    trigger_date: dt.date,
    due: dt.date,
    satisfied_on: dt.date | None,
    as_of: dt.date,
    period_end: PeriodEnd | None = None,
) -> Deadline:
    if period_end is not None:
        due = period_end(due)
    done = seen(satisfied_on, as_of)
    return Deadline(trigger_date, due, done, deadline_status(due, done, as_of), days_late(due, done, as_of))


def first_on_or_after(day: dt.date, candidates: Iterable[dt.date | None]) -> dt.date | None:
    """The earliest candidate date on or after ``day`` (None when there is none)."""
    found = [c for c in candidates if c is not None and c >= day]
    return min(found) if found else None


# ------------------------------------------------------- self-monitoring


USER, TOWN = "user", "town"


def is_users_own(sampled_by: str | None) -> bool:
    """Whether a sample is the user's own (lab_results.sampled_by ``user``, or blank): only such a sample's
    violation calls for the user's 24-hour notice and repeat sampling (40 CFR 403.12(g)(2)), and only such
    samples meet the testing the administrator requires of "each such person" (the sewer use law)."""
    return (sampled_by or USER).strip().lower() != TOWN


# ------------------------------------------------ significant noncompliance


def exact(value: float | int | str | Decimal) -> Decimal:
    """A measurement as an exact decimal: the shortest text of the float,
    rounded to 9 places (so 240.01000000000002 from a unit conversion is 240.01)."""
    if isinstance(value, Decimal):
        d = value
    elif isinstance(value, float):
        d = Decimal(repr(value))
    else:
        d = Decimal(str(value))
    return d.quantize(Decimal("1e-9"), rounding=ROUND_HALF_UP)


def pct_reached(count: int, measurements: int, pct: float | int | str) -> bool:
    """count is ``pct`` percent or more of measurements, in exact arithmetic
    (count x 100 >= pct x measurements). No measurements: never."""
    if measurements <= 0:
        return False
    return Fraction(int(count) * 100) >= Fraction(str(pct)) * int(measurements)


def percent(count: int, measurements: int) -> float | None:
    return 100.0 * count / measurements if measurements else None


def _key(parameter: str) -> str:
    return str(parameter).strip().lower()


def trc_excluded(parameter: str, snc: Any) -> bool:
    """``snc``: a version of the rules' snc section (``rules.snc.at(day)``)."""
    return _key(parameter) in {_key(p) for p in snc.trc_excluded_parameters}


def trc_factor(parameter: str, snc: Any) -> Decimal:
    """The technical review criteria factor of a parameter (a version of the rules' ``snc``)."""
    by_parameter = {_key(p): f for p, f in snc.trc_factor_by_parameter.items()}
    return Decimal(str(by_parameter.get(_key(parameter), snc.trc_factor_default)))


def trc_reached(value: float, limit_value: float, factor: Decimal | float | str) -> bool:
    """value >= limit x factor, in decimals (336 against 240 x 1.4 is reached)."""
    return exact(value) >= exact(limit_value) * Decimal(str(factor))


@dataclass(frozen=True)
class Evaluation:
    """One result against one per-sample limit (a row of discharge_evaluations)."""

    sample_id: str
    limit_type: str  # max | min
    limit_value: float
    value: float | None
    nondetect: bool
    outcome: str  # compliant | violation | inconclusive


def sample_breaks(evaluations: Iterable[Evaluation]) -> bool:
    """A sample exceeds when it breaks any of its limits (pH: the minimum or the
    maximum); a non-detect within the limit or an inconclusive one does not."""
    return any(e.outcome == "violation" for e in evaluations)


def sample_reaches_trc(parameter: str, evaluations: Iterable[Evaluation], snc: Any) -> bool:
    """A detected result at or above its maximum limit x the TRC factor (never pH,
    never a non-detect, never against a minimum)."""
    if trc_excluded(parameter, snc):
        return False
    factor = trc_factor(parameter, snc)
    return any(
        e.limit_type == "max"
        and not e.nondetect
        and e.value is not None
        and trc_reached(e.value, e.limit_value, factor)
        for e in evaluations
    )


@dataclass(frozen=True)
class Criterion:
    criterion: str  # chronic | trc | late_report
    measurements: int
    count: int
    pct: float


def snc_counts(
    parameter: str, samples: Mapping[str, Sequence[Evaluation]], snc: Any
) -> tuple[int, int, int | None]:
    """(measurements, results breaking the limit, results reaching TRC or None
    when the parameter is never judged by TRC). One measurement per sample."""
    measurements = len(samples)
    breaking = sum(1 for evs in samples.values() if sample_breaks(evs))
    if trc_excluded(parameter, snc):
        return measurements, breaking, None
    trc = sum(1 for evs in samples.values() if sample_reaches_trc(parameter, evs, snc))
    return measurements, breaking, trc


def snc_criteria(parameter: str, samples: Mapping[str, Sequence[Evaluation]], snc: Any) -> list[Criterion]:
    """The SNC criteria met by one user's results of one parameter in one period."""
    measurements, breaking, trc = snc_counts(parameter, samples, snc)
    return criteria_met(measurements, breaking, trc, snc)


def criteria_met(measurements: int, breaking: int, trc: int | None, snc: Any) -> list[Criterion]:
    out = []
    if breaking and pct_reached(breaking, measurements, snc.chronic_pct):
        out.append(Criterion("chronic", measurements, breaking, percent(breaking, measurements)))
    if trc and pct_reached(trc, measurements, snc.trc_pct):
        out.append(Criterion("trc", measurements, trc, percent(trc, measurements)))
    return out


def report_lateness(due: dt.date, received_on: dt.date | None, as_of: dt.date) -> int:
    """Days after its due date a report came in; not received (by --as-of): the
    days from its due date to --as-of. Negative when early / not yet due."""
    return ((seen(received_on, as_of) or as_of) - due).days


def report_is_late_for_snc(due: dt.date, received_on: dt.date | None, as_of: dt.date, late_days: int) -> bool:
    """More than ``late_days`` (45) days late."""
    return report_lateness(due, received_on, as_of) > int(late_days)


def late_report_criterion(
    reports: Sequence[tuple[dt.date, dt.date | None]], as_of: dt.date, late_days: int
) -> Criterion | None:
    """``late_report`` over one user's reports due in one period: measurements =
    reports due, count = those more than ``late_days`` late; None when none is."""
    late = sum(1 for due, received in reports if report_is_late_for_snc(due, received, as_of, late_days))
    if not reports or not late:
        return None
    return Criterion("late_report", len(reports), late, percent(late, len(reports)))


def publication_year_periods(year: int, months: int) -> list[tuple[dt.date, dt.date]]:
    """The periods of one calendar year (the year an annual SNC list covers)."""
    periods, start = [], dt.date(year, 1, 1)
    while start.year == year:
        periods.append(half_year(start, months))
        start = add_months(start, months)
    return periods


# -------------------------------------------------- notices of violation

CORRECTED, CORRECTED_LATE, NOT_CORRECTED, PENDING = "corrected", "corrected_late", "not_corrected", "pending"


def correction_period_days(correction: Any) -> int:
    """The period to correct (a version of the rules' ``notices.sewer_correction``): its ``days``
    when set, else the maximum; never more than the law's maximum."""
    maximum = int(correction.max_days)
    days = int(correction.days if correction.days is not None else maximum)
    if days > maximum or days < 0:
        raise ValueError(f"{days} days to correct is outside 0-{maximum} ({correction.citation})")
    return days


@dataclass(frozen=True)
class LaterResult:
    """The next result of the same user and parameter after the violating one."""

    sample_id: str
    collected_date: dt.date
    outcome: str  # compliant | violation (an inconclusive one decides nothing)
    value: float | None = None


@dataclass(frozen=True)
class FollowUp:
    status: str  # corrected | corrected_late | not_corrected | pending | overdue
    corrected_in_time: bool | None  # None while pending
    next_result: LaterResult | None
    corrected_on: dt.date | None  # the first later compliant result (by --as-of)


def follow_up(
    correct_by: dt.date, next_result: LaterResult | None, first_compliant_on: dt.date | None, as_of: dt.date
) -> FollowUp:
    """Whether a noticed violation was corrected in time, judged on --as-of.

    ``next_result`` is the next decided (compliant or violation) result of the
    user and parameter after the violating sample; ``first_compliant_on`` the
    date of the first later compliant one. Results after --as-of are unseen.
    """
    nxt = next_result if next_result is not None and next_result.collected_date <= as_of else None
    corrected_on = seen(first_compliant_on, as_of)
    if nxt is None:
        status = PENDING if as_of <= correct_by else OVERDUE
        return FollowUp(status, None if status == PENDING else False, None, corrected_on)
    if nxt.outcome == "violation":
        return FollowUp(NOT_CORRECTED, False, nxt, corrected_on)
    if nxt.collected_date <= correct_by:
        return FollowUp(CORRECTED, True, nxt, corrected_on)
    return FollowUp(CORRECTED_LATE, False, nxt, corrected_on)


def violation_days(correct_by: dt.date, corrected_on: dt.date | None, as_of: dt.date) -> int:
    """Days counted under the sewer use law's penalty section: the day of the violation, plus each day
    after the correction period until the first later compliant result
    (exclusive) or --as-of (inclusive)."""
    done = seen(corrected_on, as_of)
    if done is not None:
        extra = (done - correct_by).days - 1
    else:
        extra = (as_of - correct_by).days
    return 1 + max(0, extra)


def max_penalty(
    days: int, fine_max: float | int | str | None, civil_max: float | int | str | None
) -> Decimal | None:
    """The most the sewer use law's penalty section allows: per day, the fine plus the civil penalty, each
    as the section states it (a part it does not have adds nothing); None when it states neither amount."""
    stated = [Decimal(str(v)) for v in (fine_max, civil_max) if v is not None]
    return sum(stated, Decimal(0)) * int(days) if stated else None


# ----------------------------------------------------- grease interceptors


@dataclass(frozen=True)
class PumpoutStatus:
    last_pumped_on: dt.date | None
    next_due: dt.date
    status: str  # current | overdue
    days_overdue: int
    late_pumpouts: int  # pump-outs made after they were due, since the frequency was set


def pumpout_status(
    set_on: dt.date, interval_days: int, pumped: Iterable[dt.date], as_of: dt.date
) -> PumpoutStatus:
    """The next pump-out is due ``interval_days`` after the later of ``set_on``
    (the owner notified of the frequency) and the last pump-out; overdue once
    that day is before --as-of."""
    if int(interval_days) <= 0:
        raise ValueError("a pump-out interval must be at least one day")
    dates = sorted({d for d in pumped if d is not None and d <= as_of})
    last = dates[-1] if dates else None
    anchor, late = set_on, 0
    for d in dates:
        if d < set_on:
            continue
        if d > add_days(anchor, interval_days):
            late += 1
        anchor = d
    next_due = add_days(max(set_on, last) if last else set_on, interval_days)
    overdue = next_due < as_of
    return PumpoutStatus(
        last, next_due, "overdue" if overdue else "current", (as_of - next_due).days if overdue else 0, late
    )
