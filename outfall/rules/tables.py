"""Dated rules as small tables for SQL, and the words of a day no rule covers.

Where SQL applies a rule across many days (slugs, infiltration, statistic
limits, surcharges, significant noncompliance), the asset does not bind one
value: it writes the rule's dated versions to a small table of the warehouse
(``effective_from``, ``effective_to``, the values, ``rule``) and the SQL joins
each row to the version in effect on its own day::

    JOIN slug_rules v ON s.local_day BETWEEN v.effective_from AND v.effective_to

``effective_to`` of the version still in effect is written as 9999-12-31, and the
``effective_from`` of one whose first day the law does not state as 0001-01-01, so the
join needs no NULL test (``discharge_limit_defaults`` keeps NULL: its SQL tests
for it). A row whose day no version covers finds no version: the SQL reports it
as not judged (a finding, with the day and the section), never guesses.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from outfall.rules.dated import RulesError, day_text, starts

OPEN_END = dt.date(9999, 12, 31)  # effective_to of a version still in effect, in the SQL tables


def versions_frame(
    versions: Iterable[Any], columns: dict[str, str | Callable[[Any], Any]], rules_version: str | None = None
):
    """One row per dated version: effective_from, effective_to (OPEN_END when open), the ``columns``
    (a field name, or a function of the version) and ``rule`` (its citation)."""
    import pandas as pd

    rows = []
    for v in versions:
        row: dict[str, Any] = {"effective_from": starts(v), "effective_to": v.effective_to or OPEN_END}
        for name, how in columns.items():
            value = how(v) if callable(how) else getattr(v, how)
            row[name] = float(value) if hasattr(value, "as_tuple") else value  # Decimal -> DOUBLE for SQL
        row["rule"] = v.citation
        if rules_version is not None:
            row["rules_version"] = rules_version
        rows.append(row)
    names = ["effective_from", "effective_to", *columns, "rule"] + (
        ["rules_version"] if rules_version else []
    )
    return pd.DataFrame(rows, columns=names)  # dates stay datetime.date (9999-12-31 is past pandas' range)


def coverage_text(versions: Iterable[Any]) -> str:
    """'from 1986-11-20' or 'from 2005-10-14 to 2026-12-31 and from 2027-01-01' (for a reader): each
    period once, however many entries share it, periods that touch or overlap joined."""
    periods: list[list] = []
    for v in sorted(versions, key=starts):
        start, end = starts(v), v.effective_to
        last = periods[-1] if periods else None
        if last is not None and (last[1] is None or start <= last[1] + dt.timedelta(days=1)):
            last[1] = None if last[1] is None or end is None else max(last[1], end)
            continue
        periods.append([start, end])
    parts = [f"from {day_text(a)}" + (f" to {b}" if b else "") for a, b in periods]
    return " and ".join(parts) or "never"


def coverage_phrase(versions: Iterable[Any]) -> str:
    """What the rules give, for the parenthesis of a reason: 'they give one from 1986-11-20', or 'the rules
    file states none' when it has no such section (the law it was written from states none)."""
    versions = list(versions or ())
    return f"they give one {coverage_text(versions)}" if versions else "the rules file states none"


def not_in_effect(what: str, day: dt.date, versions: Iterable[Any]) -> str:
    """Why something was not judged: 'not judged: the rules give no slug definition in effect on 2004-05-01
    (they give one from 1986-11-20)'; with no such rule at all: 'not judged: the rules state no slug
    definition (the law they were written from states none)'."""
    versions = list(versions or ())
    if not versions:
        return f"not judged: the rules state no {what} (the law they were written from states none)"
    return f"not judged: the rules give no {what} in effect on {day} ({coverage_phrase(versions)})"


@dataclass(frozen=True)
class NotJudged:
    """Something an asset could not judge for want of a rule in effect on its day (table not_judged)."""

    subject: str  # what: "sample S-1 of IU-1", "site W-3"
    day: dt.date  # the day the rule was needed for
    section: str  # the rules section: "snc", "swppp.weekly_inspection"
    reason: str  # in words: not_in_effect(...)


def check_implemented(rules: Any, group: str, implemented: dict[str, Any]) -> None:
    """Refuse a rules file whose readings (``readings_sewer_compliance``, ``readings_enforcement``) ask,
    in any of their versions, for a reading this code does not implement: RulesError naming the file,
    the entry and the value."""
    readings = getattr(rules, group, None)
    if readings is None:
        return
    for name, value in implemented.items():
        for i, version in enumerate(getattr(readings, name, None) or ()):
            if version.value != value:
                raise RulesError(
                    f"{rules.source.name}: {group}.{name}[{i}]: {version.value!r}; this version of "
                    f"Outfall implements only {value!r}"
                )
