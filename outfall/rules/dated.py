"""Dated entries and the two kinds of dated lists of the rules files.

- ``Versions``: successive versions of one rule (the slug definition, a
  stormwater penalty...). At most one is in effect on a day; ``.at(day)`` is
  that one, and a day no version covers is an error naming the section.
- ``Entries``: several rules side by side, each with its own dates (the
  discharge limits: one per parameter and limit type; the adopted surcharge
  rates: one per parameter). Entries of the same thing may not overlap;
  ``.at(day)`` is every entry in effect on the day (possibly none).

Both ends of an entry's dates are inclusive; ``effective_to`` left out means
"still in effect". ``effective_from: null`` is a first day the law does not state (an excerpt that
gives no date of adoption): the entry is in effect from the earliest day there is, and every text
that shows its dates says "not stated in the code" (``NOT_STATED``), never a guessed day. Lookups
read ``starts`` (the first day, ``dt.date.min`` when not stated), so they need no None test.

``in_effect_on(entries, day, what)`` is the one in-effect lookup: the entry in
effect on a day, RulesError naming what and the day when none is or when more
than one is. ``find_in_effect`` is the same lookup with None when none is.
``Versions`` and ``Entries`` use it, and so do the law's functions that take a
section's versions (``illicit_terms_on``, ``practice_terms_on`` of ``law/``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any, ClassVar, Generic, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, GetCoreSchemaHandler, model_validator
from pydantic_core import PydanticCustomError, core_schema

from outfall.rules.types import Citation, Day

NOT_STATED = "a day not stated in the code"
"""How a first day the law does not state is shown (``effective_from: null``)."""
OPEN_START = dt.date.min
"""The first day of an entry whose effective_from is not stated, for lookups and SQL tables."""


class RulesError(ValueError):
    """A rules file that cannot be used, or a rule asked for a day it does not cover.

    The message is one line naming the file, the entry's path and what is wrong. ``problems`` lists every
    problem found, one line each, in the order of the file (the message names the first and counts the
    others; ``outfall rules check`` prints them all).
    """

    def __init__(self, message: str, problems: list[str] | None = None):
        super().__init__(message)
        self.problems: list[str] = list(problems) if problems else [message]


class Model(BaseModel):
    """Every mapping of a rules file: strict types, no unknown keys, immutable."""

    # The attribute docstrings of the models are their fields' descriptions in rules/schema.json and
    # docs/rules.md; outfall.rules.generate reads them from the source. Not use_attribute_docstrings:
    # it reads the source at import, and `outfall run` reads the rules first and must stop within 3 s.
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, validate_default=False)

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = [str(k) for k in data if k not in cls.model_fields]
            if unknown:
                allowed = ", ".join(cls.model_fields)
                raise PydanticCustomError(
                    "rules",
                    "unknown key {key} (the keys here are: {allowed})",
                    {"key": repr(unknown[0]), "allowed": allowed, "key_name": unknown[0]},
                )
        return data


def day_text(day: dt.date | None) -> str:
    """A first day as the rules' words show it: 2026-01-01, or "a day not stated in the code" (None, or the
    ``OPEN_START`` lookups use for it)."""
    return NOT_STATED if day is None or day == OPEN_START else str(day)


class Dated(Model):
    """An entry with its citation and the days it is in effect (both ends inclusive)."""

    citation: Citation
    effective_from: Day | None
    """First day in effect; null when the law does not state it (shown as "not stated in the code",
    in effect from the earliest day)."""
    effective_to: Day | None = None
    """Last day in effect; left out while the entry is still in effect."""

    @property
    def starts(self) -> dt.date:
        """The first day in effect for lookups: effective_from, or the earliest day when not stated."""
        return starts(self)

    @property
    def effective_from_stated(self) -> bool:
        """False where the law does not state the day the entry took effect."""
        return self.effective_from is not None

    @model_validator(mode="after")
    def _dates_in_order(self) -> Dated:
        if self.effective_to is not None and self.effective_to < self.starts:
            raise PydanticCustomError(
                "rules",
                "effective_to {to} is before effective_from {start}",
                {"to": str(self.effective_to), "start": str(self.effective_from), "key_name": "effective_to"},
            )
        return self

    def in_effect(self, day: dt.date) -> bool:
        return self.starts <= day and (self.effective_to is None or day <= self.effective_to)

    def period_text(self) -> str:
        return period_text(self)


def starts(entry: Any) -> dt.date:
    """The first day of any dated entry: its effective_from, or ``OPEN_START`` when not stated."""
    return entry.effective_from if entry.effective_from is not None else OPEN_START


def first_day_text(entry: Any) -> str:
    """An entry's first day as shown: '2007-05-03', or 'a day not stated in the code'."""
    return str(entry.effective_from) if entry.effective_from is not None else NOT_STATED


def period_text(entry: Any) -> str:
    """'from 2007-01-01 through 2026-12-31', 'from 2007-01-01 with no end date' or 'from a day not stated
    in the code with no end date' (any dated entry)."""
    end = f"through {entry.effective_to}" if getattr(entry, "effective_to", None) else "with no end date"
    return f"from {first_day_text(entry)} {end}"


T = TypeVar("T", bound=Dated)


def find_in_effect(entries: Iterable[T], day: dt.date, what: str) -> T | None:
    """The entry of ``entries`` in effect on ``day`` (both ends inclusive), or None when none is.

    RulesError, naming ``what`` and the day, when more than one is: two versions of one rule may not
    both be in effect on a day."""
    found = [e for e in entries if e.in_effect(day)]
    if len(found) > 1:
        raise RulesError(
            f"More than one rule for {what} is in effect on {day.isoformat()}; "
            "close the older one with effective_to."
        )
    return found[0] if found else None


def in_effect_on(entries: Iterable[T], day: dt.date, what: str) -> T:
    """The one entry of ``entries`` in effect on ``day`` (both ends inclusive).

    RulesError, naming ``what`` and the day, when none is or more than one is."""
    found = find_in_effect(entries, day, what)
    if found is None:
        raise RulesError(f"No rule for {what} is in effect on {day.isoformat()}.")
    return found


def _overlap(a: Any, b: Any) -> dt.date | None:
    """The first day both are in effect, or None."""
    start = max(starts(a), starts(b))
    ends = [e for e in (a.effective_to, b.effective_to) if e is not None]
    return start if not ends or start <= min(ends) else None


def _check_overlaps(
    items: tuple[Any, ...], key: Callable[[Any], Hashable], label: Callable[[Any], str]
) -> None:
    for j, later in enumerate(items):
        for i in range(j):
            earlier = items[i]
            if key(earlier) != key(later):
                continue
            day = _overlap(earlier, later)
            if day is None:
                continue
            what = f" for {label(earlier)}" if label(earlier) else ""
            first_i, first, second = min((i, earlier, later), (j, later, earlier), key=lambda t: starts(t[1]))
            if starts(first) < starts(second):
                hint = (
                    f"give entry [{first_i}] effective_to: {starts(second) - dt.timedelta(days=1)} "
                    f"(the day before the other begins)"
                )
            else:
                hint = "correct the dates"
            raise PydanticCustomError(
                "rules",
                "is in effect {b}, and so is entry [{other}]{what} ({a}): two entries of the same rule "
                "may not both be in effect on {day}; {hint}",
                {
                    "day": day_text(day),
                    "other": i,
                    "what": what,
                    "a": period_text(earlier),
                    "b": period_text(later),
                    "hint": hint,
                    "index": j,
                },
            )


class _DatedList(tuple, Generic[T]):
    """A tuple of dated entries that knows its place in the file (for messages)."""

    min_length: ClassVar[int] = 0
    where: str = "?"
    source: str = "rules"

    @classmethod
    def _key(cls, item: Any) -> Hashable | None:
        return None

    @classmethod
    def _label(cls, item: Any) -> str:
        return ""

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        args = get_args(source)
        item = args[0] if args else Dated
        list_schema = core_schema.list_schema(
            handler.generate_schema(item), min_length=cls.min_length or None
        )

        def build(items: list) -> _DatedList:
            made = cls(items)
            _check_overlaps(made, cls._key, cls._label)
            return made

        return core_schema.no_info_after_validator_function(
            build,
            list_schema,
            serialization=core_schema.plain_serializer_function_ser_schema(list, return_schema=list_schema),
        )

    def bind(self, source: str, where: str) -> None:
        self.source, self.where = source, where

    def _no_entry(self, day: dt.date) -> RulesError:
        cover = "; ".join(period_text(e) for e in sorted(self, key=starts)) or "none"
        error = RulesError(
            f"{self.source}: {self.where}: no entry in effect on {day} (entries: {cover}); "
            f"add one that covers that day"
        )
        # what a caller needs to say it in words (outfall.rules.tables.not_in_effect)
        error.section, error.day, error.entries = self.where, day, list(self)
        return error

    def __iter__(self) -> Iterator[T]:
        return super().__iter__()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.where}: {list(self)!r})"


class Versions(_DatedList[T]):
    """Successive versions of one rule; ``.at(day)`` is the version in effect on ``day``."""

    min_length = 1

    @classmethod
    def _key(cls, item: Any) -> Hashable | None:
        return ()  # every version is a version of the same thing

    def get(self, day: dt.date) -> T | None:
        """The version in effect on ``day``, or None."""
        return find_in_effect(self, day, f"{self.source}: {self.where}")

    def at(self, day: dt.date) -> T:
        """The version in effect on ``day`` (the day of the violation, inspection or bill).

        RulesError, naming the file, the section and the day, when none is."""
        found = self.get(day)
        if found is None:
            raise self._no_entry(day)
        return found


class Entries(_DatedList[T]):
    """Dated entries side by side; entries of the same thing (``item.key()``) may not overlap."""

    @classmethod
    def _key(cls, item: Any) -> Hashable | None:
        return item.key()

    @classmethod
    def _label(cls, item: Any) -> str:
        return item.label()

    def at(self, day: dt.date) -> tuple[T, ...]:
        """Every entry in effect on ``day`` (an empty tuple when none is)."""
        return tuple(item for item in self if item.in_effect(day))

    def one(self, day: dt.date, key: Hashable) -> T:
        """The entry of ``key`` in effect on ``day``; RulesError when none is."""
        found = self.find(day, key)
        if found is None:
            raise RulesError(f"{self.source}: {self.where}: no entry for {key!r} in effect on {day}")
        return found

    def find(self, day: dt.date, key: Hashable) -> T | None:
        """The entry of ``key`` in effect on ``day``, or None (e.g. a rate no one adopted)."""
        return find_in_effect(
            (item for item in self if item.key() == key), day, f"{self.source}: {self.where}: {key!r}"
        )
