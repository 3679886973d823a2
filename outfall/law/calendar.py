"""Business days of New York General Construction Law § 24, as pure functions.

Where the law counts "business days" (the illicit discharge law, notification of spills: the next business
day, within three business days), a business day is a weekday named in the
rules (Monday to Friday) that is not a public holiday. The public holidays are
DATA, not code: each is a dated rule from the rules file (``business_days`` in
the town's rules file, typed by ``outfall.rules.calendar.HolidayRule``) with
its citation, and this module only computes the dates of a year from those rules
(``holiday_date``, ``holiday_dates``):

- ``fixed``: a month and day (Lincoln's Birthday, February 12);
- ``nth_weekday``: the n-th given weekday of a month (Labor Day, the first
  Monday in September);
- ``last_weekday``: the last given weekday of a month (Memorial Day);
- ``weekday_after_nth_weekday``: the first given weekday after the n-th anchor
  weekday of a month (general Election Day, the Tuesday after the first Monday
  in November).

A holiday that falls on a Sunday is also observed on the next day (GCL § 24:
"if any of such days except Flag day is Sunday, the next day thereafter"),
when its rule says so. Nothing moves a holiday that falls on a Saturday: that
Saturday is not a business day anyway, and the Friday before stays one.

A rule is in effect for a year when the holiday's own date lies within its
``effective_from`` .. ``effective_to`` (both inclusive). Counting business days
from a day before the earliest ``effective_from`` of the rules is refused: the
rules say nothing about those years.

Why not the ``holidays`` library: its New York calendar moves a Saturday
holiday to the Friday before (so Friday, July 3, 2026 would not count), adds
Susan B. Anthony Day (February 15, which is not among the GCL § 24 public
holidays) and has general Election Day only in even years from 2008 to 2014
(none before 2008), where GCL § 24 has one every year. The
test ``tests/test_law_calendar.py`` lists the differences; GCL § 24 as listed
in the rules governs.

"n business days after X" is the n-th business day after X, X itself never
counted (whether or not X is a business day): 3 business days after Friday,
May 22, 2026 (Memorial Day is Monday, May 25) is Thursday, May 28, 2026.

A period that ends on a day that is not a business day (General Construction Law
§ 25-a: "when a period of time within which an act is to be performed ends on a
Saturday, Sunday or a public holiday, the act may be done on the next succeeding
business day") ends instead on the next business day: ``BusinessCalendar.period_end``
(also ``extend_to_business_day``). Which periods the section extends is data too
(``deadline_extension`` in the town's rules file, dated, one ``DeadlineExtension``
of ``outfall.rules.calendar`` per version); ``extended_due`` applies the version in
effect on the day the period would end (found by the rules' one in-effect lookup).
"""

from __future__ import annotations

import calendar as _cal
import datetime as dt
from collections.abc import Iterable
from functools import lru_cache

from outfall.rules.calendar import (
    WEEKDAY_NAMES,
    BusinessDayRules,
    DeadlineExtension,
    ExtendedPeriod,
    HolidayRule,
)
from outfall.rules.dated import find_in_effect

# The section of the rules that extends periods, as named in an error about it.
_EXTENSION = "periods that end on a weekend or holiday (General Construction Law § 25-a)"


def _weekday_index(name: str) -> int:
    return WEEKDAY_NAMES.index(name)


# ------------------------------------------------------------- date helpers


def nth_weekday(year: int, month: int, weekday: int, n: int) -> dt.date | None:
    """The n-th ``weekday`` (0 = Monday) of a month; None when the month has fewer."""
    first = dt.date(year, month, 1)
    day = first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
    return day if day.month == month else None


def last_weekday(year: int, month: int, weekday: int) -> dt.date:
    last = dt.date(year, month, _cal.monthrange(year, month)[1])
    return last - dt.timedelta(days=(last.weekday() - weekday) % 7)


def first_weekday_after(day: dt.date, weekday: int) -> dt.date:
    """The first ``weekday`` strictly after ``day``."""
    return day + dt.timedelta(days=(weekday - day.weekday() - 1) % 7 + 1)


def holiday_date(rule: HolidayRule, year: int) -> dt.date | None:
    """The holiday's own date in ``year`` (before any Sunday observance); None when the rule gives no
    such day that year (Feb 29 of a common year, a fifth Monday that does not exist)."""
    if rule.kind == "fixed":
        if rule.day > _cal.monthrange(year, rule.month)[1]:  # type: ignore[operator]
            return None
        return dt.date(year, rule.month, rule.day)  # type: ignore[arg-type]
    if rule.kind == "nth_weekday":
        return nth_weekday(year, rule.month, _weekday_index(rule.weekday), rule.n)  # type: ignore[arg-type]
    if rule.kind == "last_weekday":
        return last_weekday(year, rule.month, _weekday_index(rule.weekday))  # type: ignore[arg-type]
    anchor = nth_weekday(year, rule.month, _weekday_index(rule.anchor_weekday), rule.anchor_n)  # type: ignore[arg-type]
    if anchor is None:
        return None
    return first_weekday_after(anchor, _weekday_index(rule.weekday))  # type: ignore[arg-type]


def holiday_dates(rule: HolidayRule, year: int) -> list[tuple[dt.date, str]]:
    """(date, name) of the holiday in ``year`` while the rule is in effect on its own date, plus the
    next day when it falls on a Sunday and the rule says so."""
    day = holiday_date(rule, year)
    if day is None or not rule.in_effect(day):
        return []
    out = [(day, rule.name)]
    if rule.sunday_observed_next_day and day.weekday() == _weekday_index("sunday"):
        out.append((day + dt.timedelta(days=1), f"{rule.name} (observed)"))
    return out


# ---------------------------------------------------------------- calendar


class BusinessCalendar:
    """Business days under one set of holiday rules. Immutable; holiday dates
    are computed per year from the rules and cached."""

    def __init__(self, rules: BusinessDayRules):
        self.rules = rules
        self._workdays = frozenset(_weekday_index(w) for w in rules.business_weekdays)
        self.starts: dt.date | None = min((h.starts for h in rules.holidays), default=None)
        self._year = lru_cache(maxsize=256)(self._compute_year)

    def _compute_year(self, year: int) -> dict[dt.date, str]:
        out: dict[dt.date, str] = {}
        # A holiday observed on Monday, January 2 of next year comes from
        # December of this one's neighbour: compute the year before too.
        for y in (year - 1, year):
            for rule in self.rules.holidays:
                for day, name in holiday_dates(rule, y):
                    if day.year == year:
                        out[day] = f"{out[day]}; {name}" if day in out else name
        return dict(sorted(out.items()))

    def holidays(self, year: int) -> dict[dt.date, str]:
        """Every public holiday (and observed day) of ``year``, by date."""
        return dict(self._year(year))

    def _check(self, day: dt.date) -> None:
        if self.starts is None or day < self.starts:
            raise ValueError(
                f"The holiday rules begin on {self.starts.isoformat() if self.starts else '(no rules)'}; "
                f"business days cannot be counted on {day.isoformat()}."
            )

    def holiday_name(self, day: dt.date) -> str | None:
        self._check(day)
        return self._year(day.year).get(day)

    def is_business_day(self, day: dt.date) -> bool:
        """A business weekday that is not a public holiday (nor its observed day)."""
        self._check(day)
        return day.weekday() in self._workdays and day not in self._year(day.year)

    def add_business_days(self, day: dt.date, n: int) -> dt.date:
        """The n-th business day after ``day``, ``day`` itself not counted.

        n = 0 gives ``day`` unchanged; n < 0 is refused."""
        if n < 0:
            raise ValueError("count business days forward only (n >= 0)")
        current, left = day, int(n)
        while left:
            current += dt.timedelta(days=1)
            if self.is_business_day(current):
                left -= 1
        return current

    def next_business_day(self, day: dt.date) -> dt.date:
        """The first business day after ``day`` (a Friday's is the Monday, or
        the Tuesday when that Monday is a holiday)."""
        return self.add_business_days(day, 1)

    def period_end(self, day: dt.date) -> dt.date:
        """The last day of a period that would end on ``day``, under General Construction Law
        § 25-a: ``day`` itself when it is a business day, otherwise the next business day.

        Saturday and Sunday move to Monday, or to Tuesday when that Monday is a holiday (or a
        Sunday holiday's observed day); a holiday on a weekday moves to the next business day
        (Christmas on a Friday: the Monday after). ValueError for a day before the holiday rules
        begin."""
        return day if self.is_business_day(day) else self.next_business_day(day)

    def business_days_between(self, start: dt.date, end: dt.date) -> int:
        """Business days after ``start`` through ``end`` (``start`` not counted);
        0 when ``end`` is not after ``start``."""
        count, current = 0, start
        while current < end:
            current += dt.timedelta(days=1)
            if self.is_business_day(current):
                count += 1
        return count


def is_business_day(day: dt.date, calendar: BusinessCalendar) -> bool:
    return calendar.is_business_day(day)


def next_business_day(day: dt.date, calendar: BusinessCalendar) -> dt.date:
    return calendar.next_business_day(day)


def add_business_days(day: dt.date, n: int, calendar: BusinessCalendar) -> dt.date:
    return calendar.add_business_days(day, n)


def extend_to_business_day(day: dt.date, calendar: BusinessCalendar) -> dt.date:
    """General Construction Law § 25-a: ``calendar.period_end(day)``."""
    return calendar.period_end(day)


def extended_due(
    due: dt.date,
    period: ExtendedPeriod,
    calendar: BusinessCalendar,
    extensions: Iterable[DeadlineExtension] | None,
) -> tuple[dt.date, DeadlineExtension | None]:
    """(the day a period that would end on ``due`` ends, the version of ``deadline_extension`` that
    moved it or None).

    The version in effect on ``due`` applies when it names ``period``; it moves ``due`` only when
    ``due`` is not a business day. No version in effect (or none at all): ``due`` unchanged."""
    version = find_in_effect(extensions or (), due, _EXTENSION)
    if version is None or period not in version.periods:
        return due, None
    end = calendar.period_end(due)
    return (end, version) if end != due else (due, None)


def extension_law(
    extensions: Iterable[DeadlineExtension] | None, day: dt.date, period: ExtendedPeriod
) -> str | None:
    """The law that moves ``period``'s last day off a weekend or holiday, by the version in effect on ``day``
    (a letter's date), as a short citation ('N.Y. General Construction Law § 25-a'); None when none does."""
    version = find_in_effect(extensions or (), day, _EXTENSION)
    if version is None or period not in version.periods:
        return None
    return version.citation.split(":", 1)[0].strip()


def calendar_from_rules(section: dict | BusinessDayRules) -> BusinessCalendar:
    """A calendar from the ``business_days`` mapping of a rules file."""
    rules = section if isinstance(section, BusinessDayRules) else BusinessDayRules.model_validate(section)
    return BusinessCalendar(rules)
