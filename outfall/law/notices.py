"""Notices of violation, one per recipient and month, as pure functions.

- A notice covers every violation the administrator (sewer) or the officer (stormwater) found in
  its month: its *items* (``ITEMS``). Each item belongs to the month of one day (``Item.month_day``)
  and became known on another (``Item.known_on``): a sample on the day it was collected, a missed
  deadline on the day after it.

- A notice is a ``draft`` until the clerk records its mailing (input ``notices_mailed``);
  then it is ``mailed``, dated the mailing day (issued_on), and its last day to correct is
  issued_on + the days it gives (correct_by). A draft starts no deadline and accrues no penalty.
- When several mailings are recorded for one notice, the earliest mailed_on counts, with that
  row's days to correct (each later day is a mailing of its own: ``outfall.documents``).
- The days a mailing gives, and what its row lacks (contract 8.3: a mailing is a record whatever it
  lacks), are read by ``outfall.documents.period_given`` from the registry's kind of document.
- the sewer use law's penalty days count from the day after correct_by until the first later compliant
  result (exclusive) or the day judged (inclusive).

Every number of the law comes in as an argument (``maximum`` from ``rules.notices.sewer_correction``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

DRAFT, MAILED, WITHDRAWN = "draft", "mailed", "withdrawn"
KINDS = ("sewer", "stormwater")
# The kinds of item a notice lists, in the order its letter lists them.
SEWER_ITEMS = (
    "sample",
    "excursion",
    "daily_max",
    "monthly_avg",
    "no_permit",
    "late_report",
    "missed_testing",
)
STORMWATER_ITEMS = ("inspection", "other")
ITEMS = {"sewer": SEWER_ITEMS, "stormwater": STORMWATER_ITEMS}


def period_of(day: dt.date) -> str:
    """The notice period (``YYYY-MM``) holding a local date."""
    return f"{day.year:04d}-{day.month:02d}"


@dataclass(frozen=True)
class Item:
    """One violation a notice lists.

    ``month_day`` puts it in its notice's month; ``known_on`` is the first day the violation was a
    fact (a sample: the day it was collected; a missed deadline: the day after it); ``resolved_on``
    is the later fact that ended it, if any (the inspection made late, the report received late).
    ``facts`` holds what the letter says of it (values, limits, dates), all known by ``known_on``
    except ``resolved_on``."""

    kind: str
    recipient_id: str
    item: str
    ref: str
    rule: str
    month_day: dt.date
    known_on: dt.date
    resolved_on: dt.date | None = None
    facts: tuple[tuple[str, object], ...] = ()
    sub: str = ""  # what tells two items of one reference apart (a sample's parameter, ...)
    law: str = ""  # the law it rests on, as the rules name it (law_names, short); "" = the kind's own law

    @property
    def period(self) -> str:
        return period_of(self.month_day)

    @property
    def key(self) -> tuple[str, ...]:
        """The same violation in two runs has the same key."""
        return (
            self.kind,
            self.recipient_id,
            self.period,
            self.item,
            self.ref,
            self.month_day.isoformat(),
            self.sub,
        )

    def fact(self, name: str, default: object = None) -> object:
        return dict(self.facts).get(name, default)


def known_by(item: Item, day: dt.date) -> bool:
    """Whether the violation was a fact on ``day`` (so a letter dated that day may list it)."""
    return item.known_on <= day


def as_it_stood(item: Item, day: dt.date) -> Item:
    """The item as the facts stood on ``day``: a resolution dated later had not happened yet."""
    if item.resolved_on is not None and item.resolved_on > day:
        return replace(item, resolved_on=None)
    return item


def count_by_law(items: Iterable[Item]) -> list[tuple[str, int]]:
    """(law, number of items) of each law the items rest on, in the order each first appears: a letter
    counts and names the violations of each law apart (contract 7.1), never one total across laws."""
    counts: dict[str, int] = {}
    for i in items:
        counts[i.law] = counts.get(i.law, 0) + 1
    return list(counts.items())


def letter_items(items: Iterable[Item], issued_on: dt.date) -> list[Item]:
    """What a letter dated ``issued_on`` lists: the items known that day, as they stood that day,
    in the letter's order (kind of item, then day, then reference)."""
    return sort_items(as_it_stood(i, issued_on) for i in items if known_by(i, issued_on))


def sort_items(items: Iterable[Item]) -> list[Item]:
    order = {name: n for kinds in ITEMS.values() for n, name in enumerate(kinds)}
    return sorted(items, key=lambda i: (order.get(i.item, 99), i.month_day, i.ref, i.rule))


@dataclass(frozen=True)
class Mailing:
    """One recorded mailing of a notice (a kept row of notices_mailed)."""

    mailed_on: dt.date | None
    correct_within_days: int | None = None
    certified_mail_no: str | None = None
    withdrawn_reason: str | None = None


def earliest_mailing(mailings: Iterable[Mailing]) -> Mailing | None:
    """The mailing that counts: the earliest mailed_on (on a tie, the lowest certified mail number,
    so the choice never depends on the order of the files). A row without a mailing day (a draft
    withdrawn) is not a mailing."""
    found = sorted(
        (m for m in mailings if m.mailed_on is not None),
        key=lambda m: (m.mailed_on, m.certified_mail_no or "", m.correct_within_days or 0),
    )
    return found[0] if found else None


def withdrawal(mailings: Iterable[Mailing]) -> str | None:
    """The reason a draft was withdrawn (a row with withdrawn_reason and no mailing day), if any; a
    mailing recorded for the notice wins over a withdrawal (what was mailed was mailed)."""
    rows = list(mailings)
    if earliest_mailing(rows) is not None:
        return None
    reasons = sorted(
        {m.withdrawn_reason.strip() for m in rows if m.withdrawn_reason and m.withdrawn_reason.strip()}
    )
    return "; ".join(reasons) or None


def correct_by(
    issued_on: dt.date | None, days: int | None, period_end: Callable[[dt.date], dt.date] | None = None
) -> dt.date | None:
    """issued_on + days (calendar days), moved by ``period_end`` (General Construction Law § 25-a: a
    period that ends on a Saturday, Sunday or public holiday ends on the next business day); None for a
    draft."""
    if issued_on is None or days is None:
        return None
    last = issued_on + dt.timedelta(days=int(days))
    return period_end(last) if period_end is not None else last


def status(mailing: Mailing | None, withdrawn_reason: str | None = None) -> str:
    if mailing is not None:
        return MAILED
    return WITHDRAWN if withdrawn_reason else DRAFT


# ------------------------------------------------------------------ the record of mailed documents


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def chain_value(prev_sha256: str, sha256: str, document_id: str) -> str:
    """sha256 of prev_sha256 + sha256 + document_id (the texts joined, UTF-8)."""
    return sha256_hex(f"{prev_sha256}{sha256}{document_id}".encode())


def chain(records: Iterable[tuple[dt.date, str, str]]) -> list[tuple[str, str, str, str]]:
    """The chain of mailed documents: for each (issued_on, document_id, sha256), in the order of
    issued_on then document_id, (document_id, sha256, prev_sha256, chain_sha256); the first
    document's prev_sha256 is empty."""
    out, prev = [], ""
    for _issued_on, document_id, sha in sorted(records, key=lambda r: (r[0], r[1])):
        value = chain_value(prev, sha, document_id)
        out.append((document_id, sha, prev, value))
        prev = value
    return out


def penalty_days(correct_by_day: dt.date | None, corrected_on: dt.date | None, as_of: dt.date) -> int:
    """The penalty days counted: from the day after correct_by through the day before the first later
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
