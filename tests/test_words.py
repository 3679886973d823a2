"""The one module of words (outfall/words.py): dates, numbers, plurals and lists, pure."""

import datetime as dt
import math

import pandas as pd
import pytest

from outfall import words


@pytest.mark.parametrize(
    "value",
    [
        dt.date(2026, 11, 30),
        dt.datetime(2026, 11, 30, 23, 59),
        pd.Timestamp("2026-11-30 08:00"),
        "2026-11-30",
    ],
)
def test_a_day_in_words_from_any_date(value):
    assert words.day_words(value) == "November 30, 2026"
    assert words.month_words(value) == "November 2026"
    assert words.month_day_words(value) == "November 30"


@pytest.mark.parametrize("blank", [None, math.nan, pd.NaT, pd.NA])
def test_a_blank_is_blank_words(blank):
    assert words.is_missing(blank)
    assert words.day_words(blank) == words.month_words(blank) == words.number(blank) == words.usd(blank) == ""
    assert words.months_words(blank, "2026-01-01") == ""


def test_text_is_not_blank():
    assert not words.is_missing("") and not words.is_missing(0)


def test_the_months_a_count_covers_and_the_year_to_date():
    assert words.months_words("2025-01-15", dt.date(2026, 11, 30)) == "January 2025 to November 2026"
    assert words.months_words("2026-03-01", "2026-03-31") == "March 2026"
    assert words.to_date_words(dt.date(2026, 2, 1)) == "2026 to date (January 1 to February 1)"


def test_every_month_is_named_without_the_locale():
    assert [words.month_words(dt.date(2026, m, 1)).split()[0] for m in range(1, 13)] == list(
        words.MONTH_NAMES
    )
    assert [f"{dt.date(2026, m, 1):%B}" for m in range(1, 13)] == list(words.MONTH_NAMES)


def test_numbers_and_amounts():
    assert words.number(1234.5) == "1,234" and words.number(1234.5, 1) == "1,234.5"
    assert words.number("n/a") == "n/a"
    assert words.usd(1234.5) == "$1,234.50" and words.usd(-12) == "-$12.00" and words.usd(0) == "$0.00"


def test_a_count_and_its_noun():
    assert words.noun(1, "inspection") == "inspection" and words.noun(0, "inspection") == "inspections"
    assert words.noun(2, "notice of violation", "notices of violation") == "notices of violation"
    assert words.noun("x", "day") == "days"
    assert words.plural(1, "action") == "1 action" and words.plural(1204, "action") == "1,204 actions"


@pytest.mark.parametrize(
    ("items", "text"), [([], ""), (["a"], "a"), (["a", "b"], "a and b"), (["a", "b", "c"], "a, b and c")]
)
def test_a_list_in_words(items, text):
    assert words.and_list(items) == text
    assert words.and_list(items, "or") == text.replace(" and ", " or ")
