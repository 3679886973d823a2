"""Required testing (contract 6.3; the sewer use law: "The types of testing and frequency of
testing for each such person ... shall be specified by the administrator"), as pure functions.

The administrator specifies, per industrial user and parameter, how often it must be sampled
(input ``monitoring_requirements``). A frequency names calendar periods of local dates:

- ``monthly``: calendar months; ``quarterly``: January-March, April-June, July-September,
  October-December; ``semiannual``: January-June and July-December; ``annual``: calendar years.

A requirement covers a period when the period's last day is in effect (``effective_from`` through
``effective_to``, both days included): a requirement that starts in the middle of a month covers that
month, one that ends in the middle of a month does not. Only periods that have begun by the day judged
(--as-of) are listed. A period is:

- ``met`` when at least one sample of the parameter (and of the sample type, when one is required) was
  collected in it;
- ``open`` when none was and the period ends on or after the day judged (there is still time);
- ``missed`` when none was and the period ended before the day judged: a violation.

Where ``effective_from`` is blank, the requirement starts on the day the user's permit took effect,
else on the day of its first sample; with neither, it covers only the period holding the day judged
(the rules' reading ``required_testing.start_when_blank``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from outfall import vocab

#: Months in each frequency's calendar period (periods start in January: months 1, 4, 7, 10 ...).
FREQUENCY_MONTHS = {"monthly": 1, "quarterly": 3, "semiannual": 6, "annual": 12}
FREQUENCIES = vocab.TESTING_FREQUENCIES
assert tuple(FREQUENCY_MONTHS) == FREQUENCIES

MET, OPEN, MISSED = "met", "open", "missed"
STATUSES = (MET, OPEN, MISSED)


def _months(frequency: str) -> int:
    try:
        return FREQUENCY_MONTHS[frequency]
    except KeyError:
        raise ValueError(f"frequency {frequency!r} is not one of {', '.join(FREQUENCIES)}") from None


def _add_months(year: int, month: int, months: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + months
    return index // 12, index % 12 + 1


def period_of(frequency: str, day: dt.date) -> tuple[dt.date, dt.date]:
    """The calendar period of ``frequency`` that holds ``day``: (first day, last day)."""
    months = _months(frequency)
    first_month = (day.month - 1) // months * months + 1
    start = dt.date(day.year, first_month, 1)
    next_year, next_month = _add_months(day.year, first_month, months)
    return start, dt.date(next_year, next_month, 1) - dt.timedelta(days=1)


def periods(
    frequency: str, effective_from: dt.date, effective_to: dt.date | None, as_of: dt.date
) -> Iterator[tuple[dt.date, dt.date]]:
    """Each period a requirement covers, oldest first: its last day in effect (``effective_from`` through
    ``effective_to``, both included; ``None``: no end) and its first day on or before ``as_of``."""
    start, end = period_of(frequency, effective_from)  # its last day is on or after effective_from
    while start <= as_of and (effective_to is None or end <= effective_to):
        yield start, end
        start, end = period_of(frequency, end + dt.timedelta(days=1))


def period_status(samples: int, period_end: dt.date, as_of: dt.date) -> str:
    """``met`` (a sample or more), ``open`` (none yet, the period ends on or after ``as_of``) or ``missed``
    (none, and the period ended before ``as_of``)."""
    if samples >= 1:
        return MET
    return OPEN if period_end >= as_of else MISSED


def requirement_start(
    effective_from: dt.date | None,
    permit_effective: dt.date | None,
    first_sample_day: dt.date | None,
    as_of: dt.date,
) -> dt.date:
    """The first day a requirement is in effect: its ``effective_from``; blank, the day the user's permit
    took effect; with none on file, the local day of the user's first sample; with neither, ``as_of`` (so
    that only the period holding it is covered)."""
    for day in (effective_from, permit_effective, first_sample_day):
        if day is not None:
            return day
    return as_of
