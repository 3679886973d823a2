"""Business days under New York General Construction Law § 24, worked by hand.

Weekdays of the dates used (checked against a printed 2026 calendar):
May 2026: Fri 22, Sat 23, Sun 24, Mon 25 (Memorial Day), Tue 26, Wed 27, Thu 28.
July 2026: Thu 2, Fri 3, Sat 4 (Independence Day), Mon 6.
November 2026: Sun 1, Mon 2, Tue 3 (Election Day), Wed 4.
"""

from __future__ import annotations

import datetime as dt

import holidays
import pytest
from hypothesis import given, settings, strategies as st
from pydantic import ValidationError

from outfall.law.calendar import (
    BusinessCalendar,
    add_business_days,
    calendar_from_rules,
    extend_to_business_day,
    extended_due,
    holiday_date,
    holiday_dates,
    is_business_day,
    next_business_day,
)
from outfall.rules import load_rules
from outfall.rules.calendar import BusinessDayRules, DeadlineExtension, HolidayRule

RULES = load_rules("woodbury")  # the business days as the rules file states them
D = dt.date


def _rule(name, kind, month, **kw):
    kw.setdefault("sunday_observed_next_day", True)
    kw.setdefault("effective_from", D(2007, 5, 3))
    return HolidayRule(name=name, kind=kind, month=month, citation=f"GCL § 24: {name}", **kw)


# The contract's list, built here by hand (not read from the rules file) so that the
# rules file is checked against it below.
GCL_24 = BusinessDayRules(
    business_weekdays=["monday", "tuesday", "wednesday", "thursday", "friday"],
    citation="New York General Construction Law § 24",
    holidays=[
        _rule("New Year's Day", "fixed", 1, day=1),
        _rule("Martin Luther King Jr. Day", "nth_weekday", 1, weekday="monday", n=3),
        _rule("Lincoln's Birthday", "fixed", 2, day=12),
        _rule("Washington's Birthday", "nth_weekday", 2, weekday="monday", n=3),
        _rule("Memorial Day", "last_weekday", 5, weekday="monday"),
        _rule("Juneteenth", "fixed", 6, day=19, effective_from=D(2020, 10, 14)),
        _rule("Independence Day", "fixed", 7, day=4),
        _rule("Labor Day", "nth_weekday", 9, weekday="monday", n=1),
        _rule("Columbus Day", "nth_weekday", 10, weekday="monday", n=2),
        _rule(
            "Election Day",
            "weekday_after_nth_weekday",
            11,
            weekday="tuesday",
            anchor_weekday="monday",
            anchor_n=1,
            sunday_observed_next_day=False,
        ),
        _rule("Veterans Day", "fixed", 11, day=11),
        _rule("Thanksgiving Day", "nth_weekday", 11, weekday="thursday", n=4),
        _rule("Christmas Day", "fixed", 12, day=25),
    ],
)
CAL = BusinessCalendar(GCL_24)


def test_the_rules_file_gives_the_same_calendar():
    from_file = calendar_from_rules(RULES.business_days)
    for year in range(2008, 2041):
        assert from_file.holidays(year) == CAL.holidays(year), year


# ------------------------------------------------------- holiday dates


def test_holidays_of_2026():
    # 2026: Jan 1 Thu; MLK = 3rd Mon of Jan = Jan 19 (Mondays 5, 12, 19);
    # Feb 12 Thu; Washington = 3rd Mon of Feb = Feb 16 (2, 9, 16); Memorial =
    # last Mon of May = May 25 (May 31 is a Sunday); Jun 19 Fri; Jul 4 Sat (not
    # moved); Labor = 1st Mon of Sep = Sep 7; Columbus = 2nd Mon of Oct = Oct 12
    # (5, 12); Election = Tue after 1st Mon of Nov: Nov 2 is the first Monday,
    # so Nov 3; Nov 11 Wed; Thanksgiving = 4th Thu of Nov = Nov 26 (5, 12, 19,
    # 26); Dec 25 Fri. No holiday falls on a Sunday in 2026: no observed day.
    assert sorted(CAL.holidays(2026)) == [
        D(2026, 1, 1),
        D(2026, 1, 19),
        D(2026, 2, 12),
        D(2026, 2, 16),
        D(2026, 5, 25),
        D(2026, 6, 19),
        D(2026, 7, 4),
        D(2026, 9, 7),
        D(2026, 10, 12),
        D(2026, 11, 3),
        D(2026, 11, 11),
        D(2026, 11, 26),
        D(2026, 12, 25),
    ]


def test_memorial_day_when_may_31_is_a_monday():
    # 2027: May 31 is a Monday, so it is the last Monday of May.
    assert CAL.holiday_name(D(2027, 5, 31)) == "Memorial Day"
    assert CAL.holiday_name(D(2027, 5, 24)) is None


def test_election_day_is_never_november_first():
    # 2022: Nov 1 is a Tuesday, but the first Monday is Nov 7, so Election Day
    # is Tuesday, Nov 8, and Tuesday, Nov 1 is an ordinary business day.
    assert CAL.holiday_name(D(2022, 11, 8)) == "Election Day"
    assert CAL.is_business_day(D(2022, 11, 1))
    # 2027: Nov 1 is the first Monday, Election Day is Nov 2.
    assert CAL.holiday_name(D(2027, 11, 2)) == "Election Day"


def test_election_day_every_year_not_only_even_years():
    # 2025 (odd): Nov 3 is the first Monday, Election Day Tuesday Nov 4.
    assert not CAL.is_business_day(D(2025, 11, 4))
    # 2009 (odd, before the holidays library counts odd years): Nov 2 Monday, Nov 3.
    assert not CAL.is_business_day(D(2009, 11, 3))


def test_sunday_holiday_is_observed_on_monday():
    # Juneteenth 2022 is a Sunday: Monday, June 20 is a holiday too.
    assert CAL.holiday_name(D(2022, 6, 20)) == "Juneteenth (observed)"
    # Lincoln's Birthday 2023 is a Sunday: Monday, Feb 13.
    assert not CAL.is_business_day(D(2023, 2, 13))
    # Christmas 2022 is a Sunday: Monday, Dec 26.
    assert not CAL.is_business_day(D(2022, 12, 26))
    # New Year's Day 2023 is a Sunday: Monday, Jan 2, 2023.
    assert not CAL.is_business_day(D(2023, 1, 2))


def test_saturday_holiday_is_not_moved_to_friday():
    # Independence Day 2026 is a Saturday: Friday, July 3 stays a business day.
    assert CAL.is_business_day(D(2026, 7, 3))
    # New Year's Day 2022 is a Saturday: Friday, Dec 31, 2021 is a business day,
    # and Monday, Jan 3, 2022 is too.
    assert CAL.is_business_day(D(2021, 12, 31))
    assert CAL.is_business_day(D(2022, 1, 3))
    # Veterans Day 2023 is a Saturday: Friday, Nov 10 is a business day.
    assert CAL.is_business_day(D(2023, 11, 10))


def test_juneteenth_starts_with_its_rule():
    # In effect from 2020-10-14: Friday, June 19, 2020 was a business day;
    # Saturday, June 19, 2021 the first Juneteenth holiday (not moved).
    assert CAL.is_business_day(D(2020, 6, 19))
    assert CAL.holiday_name(D(2021, 6, 19)) == "Juneteenth"
    assert CAL.is_business_day(D(2021, 6, 18))


def test_a_rule_closed_by_effective_to_stops():
    rules = GCL_24.model_copy(
        update={"holidays": [_rule("Lincoln's Birthday", "fixed", 2, day=12, effective_to=D(2024, 12, 31))]}
    )
    cal = BusinessCalendar(rules)
    assert not cal.is_business_day(D(2024, 2, 12))  # Monday, holiday
    assert cal.is_business_day(D(2025, 2, 12))  # Wednesday, rule repealed


# --------------------------------------------------- counting business days


def test_next_business_day_over_a_weekend_and_a_monday_holiday():
    # Friday, May 22, 2026 -> Sat 23, Sun 24, Mon 25 (Memorial Day) -> Tuesday, May 26.
    assert next_business_day(D(2026, 5, 22), CAL) == D(2026, 5, 26)


def test_three_business_days_after_counts_from_the_next_day():
    # Friday, May 22, 2026: 1 = Tue 26, 2 = Wed 27, 3 = Thu 28 (X itself not counted).
    assert add_business_days(D(2026, 5, 22), 3, CAL) == D(2026, 5, 28)
    # From a Saturday or a holiday the same: Sat 23 -> Tue 26, Wed 27, Thu 28.
    assert add_business_days(D(2026, 5, 23), 3, CAL) == D(2026, 5, 28)
    assert add_business_days(D(2026, 5, 25), 3, CAL) == D(2026, 5, 28)
    # From an ordinary Tuesday, Jun 2, 2026: Wed 3, Thu 4, Fri 5.
    assert add_business_days(D(2026, 6, 2), 3, CAL) == D(2026, 6, 5)


def test_next_business_day_before_a_saturday_holiday_is_the_friday():
    # Thursday, July 2, 2026 -> Friday, July 3 (July 4 is a Saturday, not moved).
    assert next_business_day(D(2026, 7, 2), CAL) == D(2026, 7, 3)
    # Friday, July 3 -> Monday, July 6.
    assert next_business_day(D(2026, 7, 3), CAL) == D(2026, 7, 6)


def test_next_business_day_over_election_day():
    # Monday, Nov 2, 2026 -> Tuesday 3 is Election Day -> Wednesday, Nov 4.
    assert next_business_day(D(2026, 11, 2), CAL) == D(2026, 11, 4)


def test_next_business_day_over_a_sunday_holiday_observed_monday():
    # Friday, June 17, 2022 -> Sat 18, Sun 19 (Juneteenth), Mon 20 (observed) -> Tue 21.
    assert next_business_day(D(2022, 6, 17), CAL) == D(2022, 6, 21)


def test_zero_business_days_is_the_day_itself_and_negative_is_refused():
    assert add_business_days(D(2026, 5, 23), 0, CAL) == D(2026, 5, 23)
    with pytest.raises(ValueError):
        add_business_days(D(2026, 5, 23), -1, CAL)


def test_days_before_the_rules_begin_are_refused():
    with pytest.raises(ValueError, match="2007-05-03"):
        next_business_day(D(2007, 5, 1), CAL)
    # the first covered day itself is fine: Thu 2007-05-03 -> Fri 2007-05-04
    assert next_business_day(D(2007, 5, 2), CAL) == D(2007, 5, 3)


def test_business_days_between():
    # After Fri May 22 through Thu May 28, 2026: Tue 26, Wed 27, Thu 28 = 3.
    assert CAL.business_days_between(D(2026, 5, 22), D(2026, 5, 28)) == 3
    assert CAL.business_days_between(D(2026, 5, 28), D(2026, 5, 22)) == 0


# ------------------------------------- periods ending on a weekend or holiday (GCL § 25-a)


@pytest.mark.parametrize(
    "day, end, why",
    [
        (D(2026, 6, 5), D(2026, 6, 5), "an ordinary Friday stays"),
        (D(2026, 6, 8), D(2026, 6, 8), "an ordinary Monday stays"),
        (D(2026, 6, 6), D(2026, 6, 8), "Saturday -> Monday"),
        (D(2026, 6, 7), D(2026, 6, 8), "Sunday -> Monday"),
        (D(2026, 7, 3), D(2026, 7, 3), "Friday before a Saturday holiday stays (July 4 is not moved to it)"),
        (D(2026, 7, 4), D(2026, 7, 6), "a Saturday holiday (Independence Day) -> Monday"),
        (D(2026, 7, 5), D(2026, 7, 6), "the Sunday after it -> Monday"),
        (D(2022, 6, 18), D(2022, 6, 21), "Saturday before Juneteenth observed on Monday -> Tuesday"),
        (D(2022, 6, 19), D(2022, 6, 21), "Sunday holiday observed on Monday -> Tuesday"),
        (D(2022, 6, 20), D(2022, 6, 21), "the observed Monday itself -> Tuesday"),
        (D(2026, 12, 25), D(2026, 12, 28), "Christmas on a Friday -> Monday"),
        (D(2026, 12, 24), D(2026, 12, 24), "Christmas Eve (Thursday) is a business day and stays"),
        (D(2026, 12, 26), D(2026, 12, 28), "the Saturday after it -> Monday"),
        (D(2026, 5, 23), D(2026, 5, 26), "Saturday before Memorial Day -> Tuesday"),
        (D(2026, 5, 25), D(2026, 5, 26), "Memorial Day (Monday) -> Tuesday"),
        (D(2026, 11, 3), D(2026, 11, 4), "Election Day (Tuesday) -> Wednesday"),
        (D(2026, 11, 26), D(2026, 11, 27), "Thanksgiving (Thursday) -> the Friday after, a business day"),
        (
            D(2022, 12, 31),
            D(2023, 1, 3),
            "Saturday, Dec 31 -> over New Year's Day observed Monday Jan 2 -> Tuesday",
        ),
    ],
)
def test_a_period_ending_on_a_day_that_is_not_a_business_day_ends_on_the_next(day, end, why):
    assert CAL.period_end(day) == end, why
    assert extend_to_business_day(day, CAL) == end, why


def test_a_period_end_before_the_holiday_rules_begin_is_refused():
    with pytest.raises(ValueError, match="2007-05-03"):
        CAL.period_end(D(2007, 5, 2))
    assert CAL.period_end(D(2007, 5, 3)) == D(2007, 5, 3)  # Thursday, the first day covered


def _extension(**kw):
    kw.setdefault("citation", "N.Y. General Construction Law § 25-a")
    kw.setdefault("effective_from", D(2007, 5, 3))
    kw.setdefault("periods", ["illicit_discharges.appeal", "notices.correct_by"])
    return DeadlineExtension(**kw)


def test_extended_due_applies_the_version_in_effect_on_the_day_and_only_to_its_periods():
    ext = _extension(effective_to=D(2026, 6, 30))
    saturday = D(2026, 6, 20)
    assert extended_due(saturday, "illicit_discharges.appeal", CAL, [ext]) == (D(2026, 6, 22), ext)
    assert extended_due(saturday, "notices.correct_by", CAL, [ext]) == (D(2026, 6, 22), ext)
    # a period the version does not list, no version, no version in effect on the day: unchanged
    assert extended_due(saturday, "illicit_discharges.protest", CAL, [ext]) == (saturday, None)
    assert extended_due(saturday, "illicit_discharges.appeal", CAL, None) == (saturday, None)
    assert extended_due(D(2026, 7, 4), "illicit_discharges.appeal", CAL, [ext]) == (D(2026, 7, 4), None)
    # a business day is not moved, and no version is named as moving it
    assert extended_due(D(2026, 6, 18), "illicit_discharges.appeal", CAL, [ext]) == (D(2026, 6, 18), None)
    with pytest.raises(ValidationError):
        _extension(
            periods=["illicit_discharges.appeal_hearing"]
        )  # the Town's own act: not a period it extends
    with pytest.raises(ValidationError):
        _extension(periods=[])


def test_the_rules_file_extends_the_recipients_periods():
    ext = RULES.deadline_extension.at(D(2026, 6, 1))
    assert "§ 25-a" in ext.citation and "next succeeding business day" in ext.citation
    assert set(ext.periods) == {
        "illicit_discharges.appeal",
        "illicit_discharges.abatement",
        "illicit_discharges.protest",
        "notices.correct_by",
        # contract 7.4: every period a recipient must act in, whatever the chapter
        "obligations.accidental_statement",
        "obligations.periodic_report",
        "obligations.violation_notice_24h",
        "obligations.resample_30d",
        "obligations.slug_report",
        "grease_orders.comply_by",
    }


# ---------------------------------------------------------- rule checking


def test_a_holiday_rule_missing_its_fields_is_refused():
    with pytest.raises(ValidationError, match="needs day"):
        _rule("Broken", "fixed", 1)
    with pytest.raises(ValidationError, match="not a day of the year"):
        _rule("February 30", "fixed", 2, day=30)
    with pytest.raises(ValidationError):
        _rule("Typo", "nth_weekday", 1, weekday="mondy", n=1)


def test_feb_29_rule_only_in_leap_years():
    cal = BusinessCalendar(GCL_24.model_copy(update={"holidays": [_rule("Leap", "fixed", 2, day=29)]}))
    assert cal.holiday_name(D(2028, 2, 29)) == "Leap"
    assert cal.holidays(2027) == {}


def test_the_dates_of_a_holiday_in_a_year_are_the_laws_arithmetic_on_its_rule():
    # Labor Day 2026: Tuesday Sep 1, so the first Monday is Sep 7; Juneteenth 2022 is a Sunday,
    # observed Monday June 20; a fifth Monday of February 2026 does not exist.
    assert holiday_date(GCL_24.holidays[7], 2026) == D(2026, 9, 7)
    assert holiday_dates(GCL_24.holidays[5], 2022) == [
        (D(2022, 6, 19), "Juneteenth"),
        (D(2022, 6, 20), "Juneteenth (observed)"),
    ]
    assert holiday_dates(GCL_24.holidays[5], 2020) == []  # June 19, 2020: before its rule began
    assert holiday_date(_rule("Fifth Monday", "nth_weekday", 2, weekday="monday", n=5), 2026) is None
    # the rule names the day: weekday_after_nth_weekday of 2026 is Tuesday, Nov 3
    assert holiday_date(GCL_24.holidays[9], 2026) == D(2026, 11, 3)


def test_a_period_extension_is_found_by_the_rules_one_in_effect_lookup():
    # two versions in effect on one day (only a hand-made list can have them: the loader refuses them)
    ext = _extension()
    with pytest.raises(ValueError, match="More than one rule for periods that end on a weekend or holiday"):
        extended_due(D(2026, 6, 20), "illicit_discharges.appeal", CAL, [ext, ext])


# ------------------------------------------------ the holidays library differs


def test_holidays_library_new_york_calendar_differs_only_as_documented():
    """Why the library does not supply the dates: on weekdays 2008-2040 its
    US-NY calendar differs from GCL § 24 in exactly three ways, and each is a
    day the library gets wrong for this law:

    1. a holiday falling on Saturday is "observed" on the Friday before (GCL
       § 24 moves only Sunday holidays): e.g. Friday, July 3, 2026;
    2. Susan B. Anthony Day, February 15 (not among the GCL § 24 public holidays;
       the library lists it for New York from 2004);
    3. general Election Day only in even years before 2015 (GCL § 24: each
       general election day, and New York holds one every year).
    """
    for year in range(2008, 2041):
        ours = {d for d in CAL.holidays(year) if d.weekday() < 5}
        lib = {
            d: n
            for d, n in holidays.US(subdiv="NY", years=year).items()
            if d.weekday() < 5 and d.year == year
        }
        for day in set(lib) - ours:
            saturday = day + dt.timedelta(days=1)
            moved_from_saturday = (
                day.weekday() == 4 and "observed" in lib[day] and CAL.holiday_name(saturday) is not None
            )
            # a Saturday Jan 1 of next year is moved to Dec 31 of this one
            assert moved_from_saturday or (day.month, day.day) == (2, 15), (day, lib[day])
        for day in ours - set(lib):
            assert CAL.holiday_name(day) == "Election Day" and year % 2 == 1 and year < 2015, day
    # and the three kinds really occur (the test would pass vacuously otherwise)
    lib_2026 = holidays.US(subdiv="NY", years=2026)
    assert D(2026, 7, 3) in lib_2026 and CAL.is_business_day(D(2026, 7, 3))
    assert D(2027, 12, 31) in holidays.US(subdiv="NY", years=2027) and CAL.is_business_day(D(2027, 12, 31))
    assert D(2024, 2, 15) in holidays.US(subdiv="NY", years=2024) and CAL.is_business_day(D(2024, 2, 15))
    assert D(2013, 11, 5) not in holidays.US(subdiv="NY", years=2013) and not CAL.is_business_day(
        D(2013, 11, 5)
    )


# ------------------------------------------------------------ properties

days = st.dates(min_value=D(2007, 5, 3), max_value=D(2060, 12, 31))


@settings(max_examples=300, deadline=None)
@given(day=days, n=st.integers(min_value=1, max_value=40))
def test_business_days_never_land_on_a_weekend_or_holiday(day, n):
    got = add_business_days(day, n, CAL)
    assert got > day
    assert got.weekday() < 5
    assert CAL.holiday_name(got) is None
    assert is_business_day(got, CAL)
    assert CAL.business_days_between(day, got) == n


@settings(max_examples=300, deadline=None)
@given(day=days, n=st.integers(min_value=0, max_value=30))
def test_one_more_business_day_is_later(day, n):
    assert add_business_days(day, n + 1, CAL) > add_business_days(day, n, CAL)
    # n + 1 business days after X = the next business day after (n business days after X)
    if n:
        assert add_business_days(day, n + 1, CAL) == next_business_day(add_business_days(day, n, CAL), CAL)


@settings(max_examples=300, deadline=None)
@given(day=days)
def test_a_period_ends_on_the_first_business_day_on_or_after_its_last_day(day):
    end = CAL.period_end(day)
    assert end >= day and CAL.is_business_day(end)
    assert all(not CAL.is_business_day(day + dt.timedelta(days=i)) for i in range((end - day).days))
    assert end == (day if CAL.is_business_day(day) else next_business_day(day, CAL))


@settings(max_examples=300, deadline=None)
@given(day=days)
def test_days_skipped_by_next_business_day_are_not_business_days(day):
    nxt = next_business_day(day, CAL)
    skipped = [day + dt.timedelta(days=i) for i in range(1, (nxt - day).days)]
    assert all(not CAL.is_business_day(d) for d in skipped)
    assert len(skipped) <= 4  # at most a holiday weekend: Sat, Sun, observed Mon, and one more holiday
