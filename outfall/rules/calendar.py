"""Business days and periods that end on a weekend or holiday: the ``business_days`` section (New York
General Construction Law § 24) and the ``deadline_extension`` section (§ 25-a) of a rules file.

The public holidays are data: each is a dated rule with its citation, saying how its date is found in a
year (``kind``):

- ``fixed``: a month and day (Lincoln's Birthday, February 12);
- ``nth_weekday``: the n-th given weekday of a month (Labor Day, the first Monday in September);
- ``last_weekday``: the last given weekday of a month (Memorial Day);
- ``weekday_after_nth_weekday``: the first given weekday after the n-th anchor weekday of a month
  (general Election Day, the Tuesday after the first Monday in November).

The dates of a year and the counting of business days are the law's arithmetic
(``law/calendar.py``), as is moving a period's last day by the ``deadline_extension`` version in
effect on it.
"""

# (no "from __future__ import annotations": pydantic would evaluate every annotation string at import)

import calendar as _cal
from typing import Literal, get_args

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from outfall.rules.dated import Dated, Model
from outfall.rules.types import Citation, DayOfMonth, Flag, Month, Text, WeekOfMonth

Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAY_NAMES: tuple[str, ...] = get_args(Weekday)
"""The weekdays in the order of ``datetime.date.weekday()`` (0 = Monday)."""
HolidayKind = Literal["fixed", "nth_weekday", "last_weekday", "weekday_after_nth_weekday"]
ExtendedPeriod = Literal[
    "illicit_discharges.appeal",
    "illicit_discharges.abatement",
    "illicit_discharges.protest",
    "notices.correct_by",
    "obligations.accidental_statement",
    "obligations.periodic_report",
    "obligations.violation_notice_24h",
    "obligations.resample_30d",
    "obligations.slug_report",
    "grease_orders.comply_by",
]
"""The periods a recipient must act within that GCL § 25-a may extend, by the name the rules give them."""

# The keys each kind of holiday needs besides month.
_NEEDS = {
    "fixed": ("day",),
    "nth_weekday": ("weekday", "n"),
    "last_weekday": ("weekday",),
    "weekday_after_nth_weekday": ("weekday", "anchor_weekday", "anchor_n"),
}


class HolidayRule(Dated):
    """One public holiday: how its date is found in a year, and its citation. It is a holiday in a year when
    its own date that year is within its dates."""

    name: Text
    """The holiday's name as shown; its observed day adds "(observed)"."""
    kind: HolidayKind
    """How its date is found: fixed, nth_weekday, last_weekday or weekday_after_nth_weekday."""
    month: Month
    """Its month, 1 to 12."""
    day: DayOfMonth | None = None
    """fixed: its day of the month."""
    weekday: Weekday | None = None
    """nth_weekday, last_weekday, weekday_after_nth_weekday: its weekday."""
    n: WeekOfMonth | None = None
    """nth_weekday: which of the month's such weekdays, 1 for the first."""
    anchor_weekday: Weekday | None = None
    """weekday_after_nth_weekday: the weekday it comes after."""
    anchor_n: WeekOfMonth | None = None
    """weekday_after_nth_weekday: which of the month's anchor weekdays it comes after, 1 for the first."""
    sunday_observed_next_day: Flag
    """Whether, when it falls on a Sunday, the next day is a holiday too."""

    @model_validator(mode="after")
    def _fields_for_kind(self) -> "HolidayRule":
        missing = [f for f in _NEEDS[self.kind] if getattr(self, f) is None]
        if missing:
            raise PydanticCustomError(
                "rules",
                "holiday '{name}' ({kind}) needs {missing}",
                {"name": self.name, "kind": self.kind, "missing": ", ".join(missing)},
            )
        if self.kind == "fixed":
            last = _cal.monthrange(2000, self.month)[1]  # 2000: a leap year, so Feb 29 is allowed
            if self.day > last:  # type: ignore[operator]
                raise PydanticCustomError(
                    "rules",
                    "holiday '{name}': {month}/{day} is not a day of the year",
                    {"name": self.name, "month": self.month, "day": self.day},
                )
        return self


class BusinessDayRules(Model):
    """Business days: the weekdays counted and the public holidays. "n business days after X" is the n-th
    business day after X, X itself not counted."""

    business_weekdays: list[Weekday] = Field(min_length=1)
    """The weekdays that are business days when not a public holiday."""
    holidays: list[HolidayRule]
    """The public holidays; business days are not counted before the earliest effective_from among them."""
    citation: Citation


class DeadlineExtension(Dated):
    """Periods that end on a Saturday, Sunday or public holiday end instead on the next business day; the
    version in effect on the day a period would end applies."""

    periods: list[ExtendedPeriod] = Field(min_length=1)
    """The periods extended, each one a recipient must act within."""
