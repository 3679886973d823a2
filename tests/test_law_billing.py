"""Sewer units and amounts (Woodbury ch. 253 Part 3), at the schedule's boundaries.

Every expectation is the contract's section 4 reading; the schedule itself is
the rules file's, so these tests also prove that the data says what the law says.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from outfall.law.billing import (
    BillingInputError,
    BudgetRateError,
    ParcelUnits,
    amount,
    budget_rate,
    fields_read,
    missing_rate_message,
    rounding_of,
    units_for_parcel,
)
from outfall.rules import load_rules
from outfall.rules.models import Tier

RULES = load_rules("woodbury")
SCHEDULE = RULES.sewer_units.at(dt.date(2026, 1, 1))  # the schedule billing 2026


def units(pclass: str, **counts) -> tuple[int, int, int, int]:
    u = units_for_parcel({"property_class": pclass, **counts}, SCHEDULE)
    return (u.bond, u.om, u.street_lateral, u.house_lateral)


def full(n: int) -> tuple[int, int, int, int]:
    return (n, n, n, n)


# ---------------------------------------------------------------- single-family


@pytest.mark.parametrize(
    "acres, expected",
    [
        (0, full(1)),
        (2.99, full(1)),
        (3, full(1)),
        (3.0, full(1)),
        (3.01, (2, 1, 1, 1)),  # over 3 acres: 1 bond unit per 2 acres or part thereof
        (4, (2, 1, 1, 1)),
        (4.01, (3, 1, 1, 1)),
        (10, (5, 1, 1, 1)),
        (73.99, (37, 1, 1, 1)),
        (74, (37, 1, 1, 1)),  # cap: up to 74 acres
        (74.5, (37, 1, 1, 1)),  # the gap between 74 and 75 adds nothing
        (75, (37, 1, 1, 1)),
        (75.01, (38, 1, 1, 1)),  # in excess of 75: 1 per 8 acres or part thereof
        (76, (38, 1, 1, 1)),
        (83, (38, 1, 1, 1)),
        (83.01, (39, 1, 1, 1)),
        (400, (37 + 41, 1, 1, 1)),
    ],
)
def test_single_family_acreage(acres, expected):
    assert units("single_family", acres=acres) == expected


def test_single_family_acres_are_decimal_not_binary_float():
    # 6.000000000000001 is not 6: as written it is over 6, so bond 4; the written 6.0 is exactly 3 units.
    assert units("single_family", acres=6.0) == (3, 1, 1, 1)
    assert units("single_family", acres="6.00") == (3, 1, 1, 1)
    assert units("single_family", acres=Decimal("3.000")) == full(1)


def test_single_family_explanations():
    small = units_for_parcel({"property_class": "single_family", "acres": 2.5}, SCHEDULE)
    assert small.explanation == "single family, 2.5 acres: 3 acres or less = 1 full unit (ch. 253 Part 3)"
    big = units_for_parcel({"property_class": "single_family", "acres": 80}, SCHEDULE)
    assert "(37) + 1 unit per 8 acres or part thereof over 75 acres (1) = 38 units" in big.explanation
    assert "1 unit each of O&M, street lateral and house lateral" in big.explanation


# ---------------------------------------------------------------- fixed and per-count classes


def test_two_and_three_family():
    assert units("two_family") == full(2)
    assert units("three_family") == full(3)


@pytest.mark.parametrize("pclass", ["apartment", "trailer_park", "motel"])
@pytest.mark.parametrize("n", [0, 1, 2, 57])
def test_living_units(pclass, n):
    assert units(pclass, living_units=n) == full(n)


@pytest.mark.parametrize("bathrooms, expected", [(0, 1), (1, 1), (2, 2), (9, 9)])
def test_commercial_bathrooms_at_least_one(bathrooms, expected):
    assert units("commercial", bathrooms=bathrooms) == full(expected)
    text = units_for_parcel({"property_class": "commercial", "bathrooms": 0}, SCHEDULE).explanation
    assert (
        text == "commercial, 0 bathrooms: 1 full unit per bathroom, at least 1 = 1 full unit (ch. 253 Part 3)"
    )


@pytest.mark.parametrize(
    "bathrooms, machines, expected",
    [
        (1, 0, 1),
        (1, 1, 2),
        (1, 10, 2),
        (1, 11, 3),
        (2, 20, 4),
        (2, 21, 5),
        (0, 0, 0),
        (0, 10, 1),
        (0, 11, 2),
    ],
)
def test_laundromat(bathrooms, machines, expected):
    assert units("laundromat", bathrooms=bathrooms, washing_machines=machines) == full(expected)


@pytest.mark.parametrize("pclass", ["large_establishment", "elementary_school"])
@pytest.mark.parametrize("people, expected", [(0, 1), (1, 1), (15, 1), (16, 2), (30, 2), (31, 3), (450, 30)])
def test_per_15_people_at_least_one(pclass, people, expected):
    assert units(pclass, people=people) == full(expected)


@pytest.mark.parametrize("people, expected", [(0, 1), (15, 1), (16, 2), (31, 3)])
def test_senior_high_school_has_no_house_lateral(people, expected):
    assert units("senior_high_school", people=people) == (expected, expected, expected, 0)
    text = units_for_parcel({"property_class": "senior_high_school", "people": 16}, SCHEDULE).explanation
    assert "2 units each of bond, O&M and street lateral (no house lateral)" in text


@pytest.mark.parametrize(
    "seats, expected", [(0, 3), (1, 3), (50, 3), (51, 5), (64, 5), (100, 5), (101, 10), (999, 10)]
)
def test_restaurant_tiers(seats, expected):
    assert units("restaurant", seats=seats) == full(expected)


def test_restaurant_explanation_names_seats_tier_and_units():
    u = units_for_parcel({"property_class": "restaurant", "seats": 64}, SCHEDULE)
    assert u.explanation == "restaurant, 64 seats: 51-100 seats = 5 full units (ch. 253 Part 3)"
    assert u.rule.startswith("Woodbury Code ch. 253 Part 3")
    assert units_for_parcel({"property_class": "restaurant", "seats": 50}, SCHEDULE).explanation.startswith(
        "restaurant, 50 seats: up to 50 seats = 3 full units"
    )
    assert units_for_parcel({"property_class": "restaurant", "seats": 101}, SCHEDULE).explanation.startswith(
        "restaurant, 101 seats: 101 seats and over = 10 full units"
    )


def test_exempt_and_approved_lot():
    assert units("exempt") == full(1)
    assert units("approved_lot") == (1, 0, 1, 0)
    text = units_for_parcel({"property_class": "approved_lot"}, SCHEDULE).explanation
    assert text == (
        "approved lot: 1 unit each of bond and street lateral (no O&M or house lateral) (ch. 253 Part 3)"
    )


@pytest.mark.parametrize(
    "acres, bond", [(0, 0), (10, 0), (75, 0), (75.01, 10), (80, 10), (80.01, 11), (160, 20)]
)
def test_vacant(acres, bond):
    assert units("vacant", acres=acres) == (bond, 0, 0, 0)


def test_vacant_still_explained_when_nothing_is_due():
    u = units_for_parcel({"property_class": "vacant", "acres": 75}, SCHEDULE)
    assert u.explanation == "vacant, 75 acres: 75 acres or less, no charge (ch. 253 Part 3)"


# ---------------------------------------------------------------- moratorium


@pytest.mark.parametrize(
    "parcel",
    [
        {"property_class": "single_family", "acres": 1},
        {"property_class": "single_family", "acres": 80},
        {"property_class": "two_family"},
        {"property_class": "apartment", "living_units": 12},
        {"property_class": "commercial", "bathrooms": 3},
        {"property_class": "laundromat", "bathrooms": 1, "washing_machines": 11},
        {"property_class": "large_establishment", "people": 40},
        {"property_class": "senior_high_school", "people": 40},
        {"property_class": "restaurant", "seats": 120},
        {"property_class": "exempt"},
        {"property_class": "approved_lot"},
        {"property_class": "vacant", "acres": 100},
    ],
)
def test_moratorium_zeroes_om_only(parcel):
    plain = units_for_parcel(parcel, SCHEDULE)
    held = units_for_parcel({**parcel, "moratorium": True}, SCHEDULE)
    assert held.om == 0
    assert (held.bond, held.street_lateral, held.house_lateral) == (
        plain.bond,
        plain.street_lateral,
        plain.house_lateral,
    )
    if plain.om:
        assert "sewer moratorium: no O&M charge" in held.explanation
        assert "Orange County sewer moratorium" in held.rule
    else:
        assert held.explanation == plain.explanation


@pytest.mark.parametrize("flag", [False, None, float("nan"), "false", "no", 0])
def test_moratorium_false_or_blank_charges_om(flag):
    assert units("two_family", moratorium=flag) == full(2)


@pytest.mark.parametrize("flag", [True, "true", "yes", 1])
def test_moratorium_true(flag):
    assert units("two_family", moratorium=flag) == (2, 0, 2, 2)


# ---------------------------------------------------------------- bad input is never billed by guess


@pytest.mark.parametrize(
    "parcel, words",
    [
        ({"property_class": "restaurant"}, "needs seats"),
        ({"property_class": "restaurant", "seats": None}, "needs seats"),
        ({"property_class": "elementary_school", "seats": 10}, "needs people"),
        ({"property_class": "senior_high_school", "people": float("nan")}, "needs people"),
        ({"property_class": "single_family"}, "needs acres"),
        ({"property_class": "laundromat", "bathrooms": 1}, "needs washing_machines"),
        ({"property_class": "apartment", "living_units": -1}, "negative"),
        ({"property_class": "commercial", "bathrooms": 1.5}, "whole number"),
        ({"property_class": "single_family", "acres": -2}, "non-negative"),
        ({"property_class": "castle"}, "no unit rule"),
        ({"property_class": None}, "no unit rule"),
    ],
)
def test_bad_parcels_raise(parcel, words):
    with pytest.raises(BillingInputError, match=words):
        units_for_parcel(parcel, SCHEDULE)


def test_requires_lists_cover_what_each_rule_reads():
    # The parcels ingestion quarantines on `requires`; billing must never need more.
    for name, spec in SCHEDULE.classes.items():
        assert set(fields_read(spec)) == set(spec.requires), name


# ---------------------------------------------------------------- the schedule is data


def test_a_changed_schedule_needs_no_code_change():
    classes = dict(SCHEDULE.classes)
    classes["restaurant"] = classes["restaurant"].model_copy(
        update={"tiers": [Tier(max=20, units=1), Tier(max=None, units=7)]}
    )
    classes["large_establishment"] = classes["large_establishment"].model_copy(update={"per": 20})
    classes["single_family"] = classes["single_family"].model_copy(update={"small_lot_max_acres": 5})
    moratorium = SCHEDULE.moratorium.model_copy(update={"zero_components": ["om", "house_lateral"]})
    schedule = SCHEDULE.model_copy(update={"classes": classes, "moratorium": moratorium})
    assert units_for_parcel({"property_class": "restaurant", "seats": 20}, schedule).bond == 1
    assert units_for_parcel({"property_class": "restaurant", "seats": 21}, schedule).bond == 7
    assert units_for_parcel({"property_class": "large_establishment", "people": 20}, schedule).bond == 1
    assert units_for_parcel({"property_class": "large_establishment", "people": 21}, schedule).bond == 2
    assert units_for_parcel({"property_class": "single_family", "acres": 4.9}, schedule).bond == 1
    held = units_for_parcel({"property_class": "two_family", "moratorium": True}, schedule)
    assert (held.bond, held.om, held.street_lateral, held.house_lateral) == (2, 0, 2, 0)


def test_parcel_units_shape():
    u = units_for_parcel({"property_class": "two_family"}, SCHEDULE)
    assert isinstance(u, ParcelUnits)
    assert u.as_dict() == {"bond": 2, "om": 2, "street_lateral": 2, "house_lateral": 2}


# ---------------------------------------------------------------- money


@pytest.mark.parametrize(
    "n, rate, expected",
    [
        (1, "0.005", "0.01"),  # half-up, not half-even
        (1, "0.015", "0.02"),
        (1, "2.675", "2.68"),  # binary float would give 2.67
        (1, 2.675, "2.68"),  # a float rate is taken as written
        (3, "50.005", "150.02"),  # 150.015 -> 150.02
        (5, "50.005", "250.03"),  # 250.025 -> 250.03
        (1, "1.004999", "1.00"),
        (0, "123.456789", "0.00"),
        (37, "112.345", "4156.77"),  # 4156.765 -> 4156.77
        (7, Decimal("10"), "70.00"),
    ],
)
def test_amount_half_up_to_the_cent(n, rate, expected):
    got = amount(n, rate, RULES.billing.at(dt.date(2026, 1, 1)).rounding)
    assert got == Decimal(expected) and str(got) == expected


def test_rounding_modes_come_from_the_rules():
    assert rounding_of(RULES.billing.at(dt.date(2026, 1, 1)).rounding) == (Decimal("0.01"), "ROUND_HALF_UP")
    assert amount(1, "2.665", "half_even_cent") == Decimal("2.66")
    assert amount(1, "2.665", "half_up_cent") == Decimal("2.67")
    assert amount(3, "0.3333", "half_up_dollar") == Decimal("1")
    with pytest.raises(ValueError, match="rounding"):
        rounding_of("nearest_penny")


@pytest.mark.parametrize(
    "budget, total, expected",
    [
        ("1000", 3, "333.33"),
        ("1000.01", 2, "500.01"),  # 500.005 -> 500.01
        ("999.99", 1, "999.99"),
        ("0", 0, "0.00"),
        ("0", 5, "0.00"),
    ],
)
def test_budget_rate(budget, total, expected):
    assert budget_rate(budget, total, "half_up_cent") == Decimal(expected)


def test_budget_rate_needs_units():
    with pytest.raises(BudgetRateError, match="0 units"):
        budget_rate("5.00", 0, "half_up_cent")


def test_missing_rate_message_names_year_district_component():
    assert missing_rate_message(2026, "district_1", "house_lateral") == (
        "no sewer rate for 2026, district_1, house_lateral: add it to sewer_rates"
    )
