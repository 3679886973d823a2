"""Notices of violation, one per recipient and month (contract section 5.1), as pure functions.

- A notice is a ``draft`` until the clerk records its mailing (input ``notices_mailed``);
  then it is ``mailed``, dated the mailing day (issued_on), and its last day to correct is
  issued_on + the days it gives (correct_by). A draft starts no deadline and accrues no penalty.
- When several mailings are recorded for one notice, the earliest mailed_on counts, with that
  row's days to correct.
- Sewer (Woodbury Code ch. 253 Part 2, enforcement): the days to correct may not exceed the
  maximum in the rules in effect on the mailing day; blank means that maximum.
- Stormwater (Woodbury Code ch. 267; Bellport Code ch. 21): the law leaves the schedule to the
  officer, so the days must be given.
- § 253-55 A penalty days count from the day after correct_by until the first later compliant
  result (exclusive) or the day judged (inclusive).

Every number of the law comes in as an argument (``maximum`` from ``rules.notices.sewer_correction``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Iterable

DRAFT, MAILED = "draft", "mailed"
KINDS = ("sewer", "stormwater")


def period_of(day: dt.date) -> str:
    """The notice period (``YYYY-MM``) holding a local date."""
    return f"{day.year:04d}-{day.month:02d}"


@dataclass(frozen=True)
class Mailing:
    """One recorded mailing of a notice (a kept row of notices_mailed)."""

    mailed_on: dt.date
    correct_within_days: int | None = None
    certified_mail_no: str | None = None


def earliest_mailing(mailings: Iterable[Mailing]) -> Mailing | None:
    """The mailing that counts: the earliest mailed_on (on a tie, the lowest certified mail number,
    so the choice never depends on the order of the files)."""
    found = sorted(mailings, key=lambda m: (m.mailed_on, m.certified_mail_no or "", m.correct_within_days or 0))
    return found[0] if found else None


def correction_days(kind: str, given: int | None, maximum: int | None) -> int:
    """The days a mailed notice gives to correct.

    sewer: ``given``, or ``maximum`` (the rules' maximum on the mailing day) when blank; more than
    the maximum is an error (such a row is quarantined at ingestion).
    stormwater: ``given``, which is required."""
    if kind == "sewer":
        if maximum is None:
            raise ValueError("no maximum period to correct a sewer violation is in effect on the mailing day")
        days = int(maximum) if given is None else int(given)
        if days < 0 or days > int(maximum):
            raise ValueError(f"{days} days to correct is outside 0-{maximum} (ch. 253 Part 2, enforcement)")
        return days
    if kind == "stormwater":
        if given is None:
            raise ValueError("a stormwater notice needs the days to correct (the officer's schedule)")
        if int(given) < 0:
            raise ValueError(f"{given} days to correct is negative")
        return int(given)
    raise ValueError(f"unknown kind of notice '{kind}'")


def correct_by(issued_on: dt.date | None, days: int | None) -> dt.date | None:
    """issued_on + days (calendar days); None for a draft."""
    if issued_on is None or days is None:
        return None
    return issued_on + dt.timedelta(days=int(days))


def status(mailing: Mailing | None) -> str:
    return DRAFT if mailing is None else MAILED


def penalty_days(correct_by_day: dt.date | None, corrected_on: dt.date | None, as_of: dt.date) -> int:
    """§ 253-55 A days counted: from the day after correct_by through the day before the first later
    compliant result, or through the day judged when none has come (results after it are unseen).
    A draft (no correct_by) counts none."""
    if correct_by_day is None:
        return 0
    first = correct_by_day + dt.timedelta(days=1)
    if corrected_on is not None and corrected_on <= as_of:
        last = corrected_on - dt.timedelta(days=1)
    else:
        last = as_of
    return max(0, (last - first).days + 1)
