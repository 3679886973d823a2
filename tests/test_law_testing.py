"""Required testing (contract 6.3), the pure functions at every boundary the contract draws: calendar
periods (months, quarters, halves, years; December 31 and January 1; February of a leap year), a period's
status on the day judged (period_end == as_of is open, the day before is missed), and which periods a
requirement covers when it starts or ends in the middle of one."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.law.testing import (
    FREQUENCIES,
    MET,
    MISSED,
    OPEN,
    period_of,
    period_status,
    periods,
    requirement_start,
)

D = dt.date


# ------------------------------------------------------------------ calendar periods


@pytest.mark.parametrize(
    "frequency, day, expected",
    [
        ("monthly", D(2026, 1, 1), (D(2026, 1, 1), D(2026, 1, 31))),
        ("monthly", D(2025, 12, 31), (D(2025, 12, 1), D(2025, 12, 31))),
        ("monthly", D(2024, 2, 29), (D(2024, 2, 1), D(2024, 2, 29))),  # leap year
        ("monthly", D(2026, 2, 14), (D(2026, 2, 1), D(2026, 2, 28))),
        ("monthly", D(2026, 4, 30), (D(2026, 4, 1), D(2026, 4, 30))),
        ("quarterly", D(2026, 1, 1), (D(2026, 1, 1), D(2026, 3, 31))),
        ("quarterly", D(2026, 3, 31), (D(2026, 1, 1), D(2026, 3, 31))),  # a quarter's last day
        ("quarterly", D(2026, 4, 1), (D(2026, 4, 1), D(2026, 6, 30))),  # the next quarter's first
        ("quarterly", D(2026, 9, 30), (D(2026, 7, 1), D(2026, 9, 30))),
        ("quarterly", D(2026, 10, 1), (D(2026, 10, 1), D(2026, 12, 31))),
        ("quarterly", D(2025, 12, 31), (D(2025, 10, 1), D(2025, 12, 31))),
        ("semiannual", D(2026, 6, 30), (D(2026, 1, 1), D(2026, 6, 30))),
        ("semiannual", D(2026, 7, 1), (D(2026, 7, 1), D(2026, 12, 31))),
        ("semiannual", D(2026, 12, 31), (D(2026, 7, 1), D(2026, 12, 31))),
        ("annual", D(2026, 1, 1), (D(2026, 1, 1), D(2026, 12, 31))),
        ("annual", D(2025, 12, 31), (D(2025, 1, 1), D(2025, 12, 31))),
    ],
)
def test_period_of(frequency, day, expected):
    assert period_of(frequency, day) == expected


@pytest.mark.parametrize("frequency", FREQUENCIES)
def test_periods_follow_each_other_without_gap_or_overlap(frequency):
    got = list(periods(frequency, D(2023, 1, 1), None, D(2026, 12, 31)))
    assert got[0][0] == D(2023, 1, 1) and got[-1][1] == D(2026, 12, 31)
    for (_, end), (start, _) in zip(got, got[1:]):
        assert start == end + dt.timedelta(days=1)
    assert len(got) == {"monthly": 48, "quarterly": 16, "semiannual": 8, "annual": 4}[frequency]


def test_an_unknown_frequency_is_refused():
    with pytest.raises(ValueError, match="weekly"):
        period_of("weekly", D(2026, 1, 1))


# ------------------------------------------------------------------ status on the day judged


def test_status_at_the_period_end():
    end = D(2026, 10, 31)
    assert period_status(0, end, as_of=D(2026, 10, 31)) == OPEN  # period_end == as_of: still open
    assert period_status(0, end, as_of=D(2026, 11, 1)) == MISSED  # the day after: missed
    assert period_status(0, end, as_of=D(2026, 10, 30)) == OPEN
    assert period_status(1, end, as_of=D(2026, 11, 1)) == MET
    assert period_status(3, end, as_of=D(2026, 10, 1)) == MET


def test_status_across_new_year():
    assert period_status(0, D(2025, 12, 31), as_of=D(2025, 12, 31)) == OPEN
    assert period_status(0, D(2025, 12, 31), as_of=D(2026, 1, 1)) == MISSED


# ------------------------------------------------------------------ which periods a requirement covers


def test_periods_begun_by_the_day_judged():
    """The period holding as_of is listed (open until it ends); the next one, not begun, is not."""
    got = list(periods("monthly", D(2026, 9, 1), None, D(2026, 11, 1)))
    assert got == [
        (D(2026, 9, 1), D(2026, 9, 30)),
        (D(2026, 10, 1), D(2026, 10, 31)),
        (D(2026, 11, 1), D(2026, 11, 30)),
    ]
    assert list(periods("monthly", D(2026, 9, 1), None, D(2026, 10, 31)))[-1] == (
        D(2026, 10, 1),
        D(2026, 10, 31),
    )


def test_a_requirement_from_mid_period_covers_that_period():
    """effective_from in the middle of a month: the month's last day is in effect, so the month counts."""
    assert list(periods("monthly", D(2026, 3, 15), None, D(2026, 4, 2))) == [
        (D(2026, 3, 1), D(2026, 3, 31)),
        (D(2026, 4, 1), D(2026, 4, 30)),
    ]
    assert list(periods("quarterly", D(2026, 3, 31), None, D(2026, 3, 31))) == [
        (D(2026, 1, 1), D(2026, 3, 31))
    ]
    assert list(periods("annual", D(2026, 12, 31), None, D(2027, 1, 1))) == [
        (D(2026, 1, 1), D(2026, 12, 31)),
        (D(2027, 1, 1), D(2027, 12, 31)),
    ]


def test_a_requirement_ending_mid_period_leaves_that_period_out():
    """effective_to in the middle of a month: its last day is not in effect, so no row for it."""
    assert list(periods("monthly", D(2026, 1, 1), D(2026, 3, 30), D(2026, 12, 31))) == [
        (D(2026, 1, 1), D(2026, 1, 31)),
        (D(2026, 2, 1), D(2026, 2, 28)),
    ]
    # ending on the period's last day keeps it (both ends inclusive)
    assert list(periods("monthly", D(2026, 1, 1), D(2026, 3, 31), D(2026, 12, 31)))[-1] == (
        D(2026, 3, 1),
        D(2026, 3, 31),
    )
    assert list(periods("quarterly", D(2026, 1, 1), D(2026, 12, 30), D(2027, 6, 30))) == [
        (D(2026, 1, 1), D(2026, 3, 31)),
        (D(2026, 4, 1), D(2026, 6, 30)),
        (D(2026, 7, 1), D(2026, 9, 30)),
    ]
    assert list(periods("semiannual", D(2026, 1, 1), D(2026, 12, 31), D(2027, 6, 30))) == [
        (D(2026, 1, 1), D(2026, 6, 30)),
        (D(2026, 7, 1), D(2026, 12, 31)),
    ]


def test_a_requirement_within_one_period():
    """Starting and ending inside one month: the month's last day is not in effect, so nothing."""
    assert list(periods("monthly", D(2026, 3, 5), D(2026, 3, 20), D(2026, 12, 31))) == []
    assert list(periods("annual", D(2026, 2, 1), D(2026, 11, 30), D(2026, 12, 31))) == []


def test_a_requirement_not_yet_begun():
    assert list(periods("monthly", D(2026, 12, 1), None, D(2026, 11, 30))) == []


# ------------------------------------------------------------------ where a blank effective_from starts


def test_requirement_start():
    as_of = D(2026, 11, 30)
    assert requirement_start(D(2026, 3, 1), D(2020, 1, 1), D(2019, 5, 5), as_of) == D(2026, 3, 1)
    assert requirement_start(None, D(2020, 1, 1), D(2019, 5, 5), as_of) == D(2020, 1, 1)  # the permit
    assert requirement_start(None, None, D(2019, 5, 5), as_of) == D(2019, 5, 5)  # the first sample
    assert requirement_start(None, None, None, as_of) == as_of
    # with neither, only the period holding as_of is covered
    assert list(periods("quarterly", requirement_start(None, None, None, as_of), None, as_of)) == [
        (D(2026, 10, 1), D(2026, 12, 31))
    ]
