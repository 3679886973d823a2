"""The one module of plain words for dates, numbers, plurals and lists: how a page, a letter or the
worklist writes a day ("November 30, 2026"), a month, a count and its noun ("3 inspections"), an amount
("$1,234.50") and a list ("a, b and c").

Pure and locale-free: the month names are written here, not taken from the machine's locale (``%B``), so a
page reads the same on every computer. A blank value (None, NaN, NaT) gives blank words, never "nan".

    from outfall.words import day_words, plural
    f"due {day_words(due)}: {plural(n, 'inspection')}"
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

import pandas as pd

MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def is_missing(value: Any) -> bool:
    """A blank value: None, NaN, NaT or pandas' NA (a text, even empty, is not)."""
    if value is None or value is pd.NaT:
        return True
    if isinstance(value, str):  # the common cases first: a table of 2,000 rows asks 20,000 times
        return False
    if isinstance(value, float):
        return value != value
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


# --------------------------------------------------------------------------- dates


def day_words(value: Any) -> str:
    """'November 30, 2026' (a date, a datetime, a Timestamp or an ISO text)."""
    if is_missing(value):
        return ""
    day = pd.Timestamp(value)
    return f"{MONTH_NAMES[day.month - 1]} {day.day}, {day.year}"


def month_words(value: Any) -> str:
    """'November 2026'."""
    if is_missing(value):
        return ""
    day = pd.Timestamp(value)
    return f"{MONTH_NAMES[day.month - 1]} {day.year}"


def months_words(first: Any, last: Any) -> str:
    """The months a count covers: 'January 2025 to November 2026', 'March 2026' (one month)."""
    if is_missing(first) or is_missing(last):
        return ""
    a, b = month_words(first), month_words(last)
    return a if a == b else f"{a} to {b}"


def month_day_words(value: Any) -> str:
    """'November 30' (a day of a year already named)."""
    if is_missing(value):
        return ""
    day = pd.Timestamp(value)
    return f"{MONTH_NAMES[day.month - 1]} {day.day}"


def to_date_words(as_of: dt.date) -> str:
    """The year to the day judged: '2026 to date (January 1 to November 30)'."""
    return f"{as_of.year} to date (January 1 to {month_day_words(as_of)})"


# --------------------------------------------------------------------------- numbers, plurals, lists


def number(value: Any, digits: int = 0) -> str:
    """'1,234' (``digits`` after the point: '1,234.5'); a text that is not a number as it is."""
    if is_missing(value):
        return ""
    try:
        figure = float(value)
    except (TypeError, ValueError):
        return str(value)
    return f"{figure:,.{digits}f}"


def measure(value: Any, digits: int = 4) -> str:
    """A measurement as a letter states it, without trailing zeros: '240', '5.49', '0.012', '1,600'
    (at most ``digits`` after the point)."""
    if is_missing(value):
        return ""
    text = f"{float(value):,.{digits}f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def usd(value: Any) -> str:
    """'$1,234.50', '-$12.00'."""
    if is_missing(value):
        return ""
    figure = float(value)
    sign = "-" if figure < 0 else ""
    return f"{sign}${abs(figure):,.2f}"


def noun(n: Any, one: str, many: str | None = None) -> str:
    """The noun that follows a count: 'inspection' after 1, 'inspections' after 0 or 2 (``many``: when not
    the singular with an s: 'notices of violation')."""
    try:
        single = int(n) == 1
    except (TypeError, ValueError):
        single = False
    return one if single else (many or one + "s")


def plural(n: int, one: str, many: str | None = None) -> str:
    """A count and its noun: '1 action', '1,204 actions', '2 notices of violation'."""
    return f"{n:,} {noun(n, one, many)}"


def and_list(items: Iterable[Any], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c' (``last``: 'or')."""
    words = [str(i) for i in items]
    if len(words) <= 2:
        return f" {last} ".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]
