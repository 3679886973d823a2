"""Illicit discharges (the illicit discharge law): deadlines and charges, as pure functions.

Every number (days, business days, installments, rate, penalty) and every rule
sentence comes in through ``IllicitTerms`` (``outfall.rules.illicit``), read
from the ``illicit_discharges`` section of the town's rules file; the business
days through a ``BusinessCalendar`` (``outfall.law.calendar``); which periods
General Construction Law § 25-a extends through the ``deadline_extension``
section. Nothing here is a law number.

Deadlines (``illicit_deadlines``), one row per obligation whose trigger exists:

- ``notify_town`` (release not hazardous, or not known to be): due the next
  business day after discovery (the law, notification of spills); satisfied by ``notified_on``. A
  hazardous release goes to emergency services at once and has neither this
  row nor the next.
- ``written_confirmation`` (not hazardous, notified): due 3 business days after
  the notice, i.e. the third business day after it (the law, notification of spills).
- ``appeal`` (notice of violation and appeal both dated): due 15 days after
  the notice of violation (the law, appeal); satisfied by the appeal's receipt, so it
  is ``met`` or ``late``, never open.
- ``appeal_hearing`` (appeal received in time): due 15 days after receipt (the law, appeal);
  satisfied by ``hearing_on``, or by ``appeal_decided_on`` when no hearing day is on file. An appeal
  received after its days is no appeal (contract 8.5): no hearing is owed.
- ``abatement``: due 15 days after the appeal's decision when one was decided
  (the law, enforcement measures after an appeal), otherwise the deadline set in
  the notice of violation (the law, notice of violation); satisfied by
  ``abated_on``. While an appeal is pending (received, not yet
  decided on --as-of) the row is ``suspended``, with no due day (its
  satisfied_on still shows an abatement made meanwhile). An appeal decided
  ``vacated`` ends the case: no abatement row. An appeal decided with no
  outcome on file is read as upholding the notice (the law's words). An appeal
  received after its 15 days (moved by § 25-a) is no appeal: it suspends nothing,
  the abatement stays due by the notice's deadline (contracts 7.4, 8.5,
  ``appeal_in_time``).
- ``cost_notice`` (abated by the Town, on a known day): due 30 days after the
  abatement (the law, cost of abatement); satisfied by ``cost_notice_on``.
- ``protest`` (cost notice and protest both dated): due 10 days after the cost
  notice (the law, cost of abatement); satisfied by the protest's receipt.

The recipient's periods (``appeal``, ``abatement``, ``protest``: those the
``deadline_extension`` version in effect on the day names) that end on a
Saturday, Sunday or public holiday end instead on the next business day
(General Construction Law § 25-a); the row's rule then says so. The
business-day deadlines and the Town's own (``appeal_hearing``,
``cost_notice``) are not moved.

Status: ``met`` (satisfied on or before due), ``late`` (after), ``open``
(unsatisfied, due on or after --as-of), ``overdue`` (unsatisfied, due before
--as-of), ``suspended`` (the abatement, while an appeal is pending). A date
after --as-of has not happened yet on --as-of: an event dated later neither
triggers nor satisfies anything (the project's rule, as in
``outfall.law.enforcement``).

Charges (``illicit_charges``), for a case with an abatement cost (the law, cost
of abatement, liability and criminal prosecution):

- principal = the abatement cost; 12 installments of principal / 12 rounded
  half-up to the cent, the last one principal - 11 x installment (it absorbs
  the rounding; below $0.66 of principal that formula would make it negative,
  see ``installment_split``);
- interest from discovery + 30 days (the 30th day following discovery), 18% a
  year simple, actual/365: the exact sum, over each day from interest_from
  through --as-of, of that day's unpaid principal x 0.18 / 365 (a February 29
  is one more day, still 1/365 of a year), rounded half-up to the cent once;
- a payment reduces the unpaid principal from the day after it was paid, so a
  payment made on --as-of already counts in the balance but not yet in the
  interest; payments dated after --as-of count for nothing yet;
- payments beyond the principal: the unpaid principal never goes below zero,
  so interest stops once the principal is paid; the balance (principal +
  interest - payments) then goes below zero and is money owed back to the payer;
- --as-of before interest_from: no interest (0.00);
- max_penalty: $350 for each penalty day (``case_penalty_days``): each day
  from discovery through abatement (or through --as-of while not abated),
  both ends counted, the days an appeal was pending included (the law postpones
  the abatement during a timely appeal and says nothing of the penalty:
  contract 8.5); when the appeal was decided ``vacated``, no day after the
  notice of violation; 0 when --as-of is before discovery.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from outfall.law.calendar import BusinessCalendar, extended_due
from outfall.law.enforcement import deadline_status, seen
from outfall.rules.calendar import DeadlineExtension, ExtendedPeriod
from outfall.rules.dated import in_effect_on
from outfall.rules.illicit import IllicitTerms

OBLIGATIONS = (
    "notify_town",
    "written_confirmation",
    "appeal",
    "appeal_hearing",
    "abatement",
    "cost_notice",
    "protest",
)
SUSPENDED = "suspended"  # the abatement while an appeal is pending (besides met, late, open, overdue)

CENT = Decimal("0.01")


# ------------------------------------------------------------------- terms


def illicit_terms_on(section: Sequence[Mapping[str, Any] | IllicitTerms], day: dt.date) -> IllicitTerms:
    """The version of the ``illicit_discharges`` rules in effect on ``day``
    (the day the discharge was discovered)."""
    versions = [v if isinstance(v, IllicitTerms) else IllicitTerms.model_validate(v) for v in section]
    return in_effect_on(versions, day, "illicit discharges (the illicit discharge law)")


# ------------------------------------------------------------------ inputs


class IllicitCase(BaseModel):
    """One row of ``illicit_discharges`` (contract 5.3). Extra columns are ignored."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    case_id: str
    premises: str
    discovered_on: dt.date
    hazardous: bool | None = None
    notified_on: dt.date | None = None
    written_confirmation_on: dt.date | None = None
    nov_on: dt.date | None = None
    abatement_due: dt.date | None = None
    appeal_received_on: dt.date | None = None
    appeal_decided_on: dt.date | None = None
    hearing_on: dt.date | None = None
    appeal_outcome: Literal["upheld", "modified", "vacated"] | None = None
    abated_on: dt.date | None = None
    abated_by: Literal["owner", "town"] | None = None
    abatement_cost_usd: Decimal | None = Field(default=None, ge=0)
    cost_notice_on: dt.date | None = None
    protest_received_on: dt.date | None = None


class IllicitPayment(BaseModel):
    """One row of ``illicit_payments``."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    case_id: str
    paid_on: dt.date
    amount_usd: Decimal = Field(ge=0)


# ----------------------------------------------------------------- outputs


@dataclass(frozen=True)
class Deadline:
    case_id: str
    obligation: str
    due: dt.date | None  # None only while suspended
    satisfied_on: dt.date | None
    status: str
    rule: str


@dataclass(frozen=True)
class Charges:
    case_id: str
    principal_usd: Decimal
    installments: int
    installment_usd: Decimal
    last_installment_usd: Decimal
    interest_from: dt.date
    interest_usd: Decimal
    paid_usd: Decimal  # payments dated on or before --as-of
    balance_usd: Decimal  # below zero: overpaid, owed back
    penalty_days: int
    max_penalty_usd: Decimal
    rule: str


# --------------------------------------------------------------- deadlines


def case_problem(case: IllicitCase) -> str | None:
    """Why a case cannot be judged as entered, in plain words, or None.

    An appeal's outcome without the day it was decided: the days the appeal was pending (no
    abatement due) end on that day, so it is needed."""
    if case.appeal_outcome is not None and case.appeal_decided_on is None:
        return (
            f"the appeal's outcome ({case.appeal_outcome}) is given but not the day it was decided "
            f"(appeal_decided_on): enter that day"
        )
    return None


def appeal_in_time(
    case: IllicitCase,
    terms: IllicitTerms,
    calendar: BusinessCalendar,
    extensions: Iterable[DeadlineExtension] | None,
) -> bool:
    """Whether the notice of appeal was received within its days of the notice of violation (their last day
    moved off a weekend or holiday by General Construction Law § 25-a): only such an appeal is an appeal,
    which postpones the abatement and asks for a hearing (contracts 7.4, 8.5). No appeal, or no notice's day
    to count from: True."""
    if case.appeal_received_on is None or case.nov_on is None:
        return True
    due, _moved = extended_due(
        _plus(case.nov_on, terms.appeal_days), "illicit_discharges.appeal", calendar, extensions
    )
    return case.appeal_received_on <= due


def appeal_pending(case: IllicitCase, as_of: dt.date, in_time: bool = True) -> bool:
    """An appeal received in time (``in_time``, ``appeal_in_time``) on or before --as-of and not decided by
    then."""
    return (
        in_time
        and seen(case.appeal_received_on, as_of) is not None
        and seen(case.appeal_decided_on, as_of) is None
    )


def appeal_vacated(case: IllicitCase, as_of: dt.date) -> bool:
    """An appeal decided on or before --as-of that vacated the notice of violation."""
    return seen(case.appeal_decided_on, as_of) is not None and case.appeal_outcome == "vacated"


@dataclass
class _CaseDeadlines:
    """The deadlines of one case as they are listed, in order (``illicit_deadlines``)."""

    case: IllicitCase
    calendar: BusinessCalendar
    as_of: dt.date
    extensions: Iterable[DeadlineExtension] | None
    rows: list[Deadline] = field(default_factory=list)

    def add(self, obligation: str, due: dt.date, satisfied: dt.date | None, rule: str) -> None:
        done = seen(satisfied, self.as_of)
        status = deadline_status(due, done, self.as_of)
        self.rows.append(Deadline(self.case.case_id, obligation, due, done, status, rule))

    def add_period(
        self, obligation: str, period: ExtendedPeriod, ends: dt.date, satisfied: dt.date | None, rule: str
    ) -> None:
        """A recipient's period: its due day moved by § 25-a where ``extensions`` say so."""
        due, moved_by = extended_due(ends, period, self.calendar, self.extensions)
        self.add(
            obligation,
            due,
            satisfied,
            rule if moved_by is None else f"{rule} {extension_note(ends, due, moved_by)}",
        )


def illicit_deadlines(
    case: IllicitCase,
    terms: IllicitTerms,
    calendar: BusinessCalendar,
    as_of: dt.date,
    extensions: Iterable[DeadlineExtension] | None,
) -> list[Deadline]:
    """The deadlines of one case on --as-of, in the order of ``OBLIGATIONS``.

    ``extensions``: the ``deadline_extension`` rules (General Construction Law § 25-a); the
    recipient's periods they name that end on a day that is not a business day end on the next."""
    out = _CaseDeadlines(case, calendar, as_of, extensions)
    if seen(case.discovered_on, as_of) is None:
        return out.rows
    in_time = appeal_in_time(case, terms, calendar, extensions)
    _notification_deadlines(out, terms)
    _appeal_deadlines(out, terms, in_time)
    _abatement_deadline(out, terms, in_time)
    _cost_deadlines(out, terms)
    return out.rows


def _notification_deadlines(out: _CaseDeadlines, terms: IllicitTerms) -> None:
    """``notify_town`` and ``written_confirmation``: a release not known to be hazardous."""
    case, calendar, rules = out.case, out.calendar, terms.rules
    if case.hazardous:
        return
    discovered = seen(case.discovered_on, out.as_of)
    out.add(
        "notify_town",
        calendar.add_business_days(discovered, terms.notify_business_days),
        case.notified_on,
        rules.notify_town,
    )
    notified = seen(case.notified_on, out.as_of)
    if notified is not None:
        out.add(
            "written_confirmation",
            calendar.add_business_days(notified, terms.confirmation_business_days),
            case.written_confirmation_on,
            rules.written_confirmation,
        )


def _appeal_deadlines(out: _CaseDeadlines, terms: IllicitTerms, in_time: bool) -> None:
    """``appeal`` (notice of violation and appeal both dated) and ``appeal_hearing``."""
    case, rules = out.case, terms.rules
    nov = seen(case.nov_on, out.as_of)
    appealed = seen(case.appeal_received_on, out.as_of)
    if nov is not None and appealed is not None:
        out.add_period(
            "appeal", "illicit_discharges.appeal", _plus(nov, terms.appeal_days), appealed, rules.appeal
        )
    if appealed is not None and in_time:  # a late appeal is no appeal: no hearing is owed (contract 8.5)
        heard = case.hearing_on if case.hearing_on is not None else case.appeal_decided_on
        out.add("appeal_hearing", _plus(appealed, terms.hearing_days), heard, rules.appeal_hearing)


def _abatement_deadline(out: _CaseDeadlines, terms: IllicitTerms, in_time: bool) -> None:
    """``abatement``: suspended by a pending appeal, none once vacated, else due after the decision
    or by the notice of violation's deadline."""
    case, as_of, rules = out.case, out.as_of, terms.rules
    nov = seen(case.nov_on, as_of)
    decided = seen(case.appeal_decided_on, as_of)
    if appeal_pending(case, as_of, in_time):
        out.rows.append(
            Deadline(
                case.case_id,
                "abatement",
                None,
                seen(case.abated_on, as_of),
                SUSPENDED,
                rules.abatement_suspended,
            )
        )
    elif appeal_vacated(case, as_of):
        pass  # the notice of violation is vacated: nothing to abate
    elif decided is not None and in_time:
        out.add_period(
            "abatement",
            "illicit_discharges.abatement",
            _plus(decided, terms.abatement_after_decision_days),
            case.abated_on,
            rules.abatement_after_appeal,
        )
    elif case.abatement_due is not None and (case.nov_on is None or nov is not None):
        # the deadline is set in the notice of violation: not before that notice is issued; an appeal
        # received after its days suspends nothing (contract 7.4)
        rule = rules.abatement if in_time else f"{rules.abatement} {rules.appeal_late}"
        out.add_period("abatement", "illicit_discharges.abatement", case.abatement_due, case.abated_on, rule)


def _cost_deadlines(out: _CaseDeadlines, terms: IllicitTerms) -> None:
    """``cost_notice`` (abated by the Town) and ``protest`` (cost notice and protest both dated)."""
    case, as_of, rules = out.case, out.as_of, terms.rules
    abated = seen(case.abated_on, as_of)
    if case.abated_by == "town" and abated is not None:
        out.add("cost_notice", _plus(abated, terms.cost_notice_days), case.cost_notice_on, rules.cost_notice)
    noticed = seen(case.cost_notice_on, as_of)
    protested = seen(case.protest_received_on, as_of)
    if noticed is not None and protested is not None:
        out.add_period(
            "protest",
            "illicit_discharges.protest",
            _plus(noticed, terms.protest_days),
            protested,
            rules.protest,
        )


def extension_note(ends: dt.date, due: dt.date, extension: DeadlineExtension) -> str:
    """The sentence that says a period was moved by General Construction Law § 25-a (rows, letters)."""
    return (
        f"The period would end on {_day_text(ends)}, which is not a business day, so it ends on "
        f"{_day_text(due)} ({extension.citation})."
    )


def _day_text(day: dt.date) -> str:
    """'Saturday, June 20, 2026'."""
    return f"{day:%A}, {day:%B} {day.day}, {day.year}"


def _plus(day: dt.date, days: int) -> dt.date:
    """``day`` + ``days`` calendar days (weekends and holidays count)."""
    return day + dt.timedelta(days=days)


# ----------------------------------------------------------------- charges


def cents(value: Fraction | Decimal | int) -> Decimal:
    """An exact amount rounded half-up (away from zero at a half cent) to the cent."""
    hundredths = Fraction(value) * 100
    half = Fraction(1, 2)
    n = math.floor(hundredths + half) if hundredths >= 0 else -math.floor(-hundredths + half)
    return (Decimal(n) / 100).quantize(CENT)


def installment_split(principal: Decimal, installments: int) -> tuple[Decimal, Decimal]:
    """(installment, last installment): principal / n rounded half-up to the
    cent, and principal - (n - 1) x installment.

    The last one absorbs the rounding, so the n payments add up to the
    principal exactly; it differs from the others by less than n/2 cents. With
    12 installments it goes below zero only for a principal under $0.66 (e.g.
    $0.06: 11 x $0.01 = $0.11 > $0.06); the formula is applied as it stands."""
    installment = cents(Fraction(principal) / installments)
    return installment, principal - (installments - 1) * installment


def accrued_interest(
    principal: Decimal,
    payments: Iterable[tuple[dt.date, Decimal]],
    start: dt.date,
    end: dt.date,
    rate: Decimal,
    day_count: int,
) -> Fraction:
    """Exact simple interest: the sum over each day from ``start`` through
    ``end`` of that day's unpaid principal x rate / day_count.

    A payment (paid_on, amount) reduces the unpaid principal from the day after
    paid_on; the unpaid principal never goes below zero. Computed by stretches
    of days with the same unpaid principal (the same sum as day by day)."""
    if end < start:
        return Fraction(0)
    one = dt.timedelta(days=1)
    changes = sorted((paid_on + one, Fraction(amount)) for paid_on, amount in payments)
    unpaid = Fraction(principal)
    i = 0
    while i < len(changes) and changes[i][0] <= start:
        unpaid -= changes[i][1]
        i += 1
    total = Fraction(0)
    day, stop = start, end + one
    while day < stop:
        upto = min(changes[i][0], stop) if i < len(changes) else stop
        total += max(unpaid, Fraction(0)) * (upto - day).days
        day = upto
        while i < len(changes) and changes[i][0] <= day:
            unpaid -= changes[i][1]
            i += 1
    return total * Fraction(rate) / day_count


def penalty_days(
    discovered_on: dt.date,
    abated_on: dt.date | None,
    as_of: dt.date,
    last_day: dt.date | None = None,
) -> int:
    """Days from discovery through abatement (or through --as-of while not abated on --as-of), both
    ends counted, and through ``last_day`` at the latest. 0 when --as-of is before discovery."""
    end = seen(abated_on, as_of) or as_of
    if last_day is not None:
        end = min(end, last_day)
    return max(0, (end - discovered_on).days + 1)


def case_penalty_days(case: IllicitCase, as_of: dt.date) -> int:
    """The penalty days of a case on --as-of (``penalty_days``): every day from discovery, the days an
    appeal was pending included (the law postpones the abatement during a timely appeal and says nothing
    of the penalty: contract 8.5); an appeal decided ``vacated`` ends the case: no day after nov_on counts
    (after the day before the appeal was received, or decided, when the notice's day is not on file).
    Dates after --as-of have not happened yet."""
    last_day = None
    if appeal_vacated(case, as_of):
        nov = seen(case.nov_on, as_of)
        received = seen(case.appeal_received_on, as_of)
        decided = seen(case.appeal_decided_on, as_of)
        last_day = nov if nov is not None else (received or decided) - dt.timedelta(days=1)  # type: ignore[operator]
    return penalty_days(case.discovered_on, case.abated_on, as_of, last_day)


def illicit_charges(
    case: IllicitCase,
    payments: Iterable[IllicitPayment],
    terms: IllicitTerms,
    as_of: dt.date,
) -> Charges | None:
    """The charges of one case on --as-of; None when it has no abatement cost.

    ``payments`` may hold other cases' payments: only this case's count."""
    if case.abatement_cost_usd is None:
        return None
    principal = cents(case.abatement_cost_usd)
    installment, last = installment_split(principal, terms.installments)
    paid = [(p.paid_on, p.amount_usd) for p in payments if p.case_id == case.case_id and p.paid_on <= as_of]
    paid_usd = cents(sum((Fraction(a) for _, a in paid), Fraction(0)))
    interest_from = _plus(case.discovered_on, terms.interest_start_days)
    interest = cents(
        accrued_interest(principal, paid, interest_from, as_of, terms.interest_rate, terms.interest_day_count)
    )
    days = case_penalty_days(case, as_of)
    return Charges(
        case_id=case.case_id,
        principal_usd=principal,
        installments=terms.installments,
        installment_usd=installment,
        last_installment_usd=last,
        interest_from=interest_from,
        interest_usd=interest,
        paid_usd=paid_usd,
        balance_usd=principal + interest - paid_usd,
        penalty_days=days,
        max_penalty_usd=cents(Fraction(terms.penalty_per_day_usd) * days),
        rule=terms.rules.charges,
    )
