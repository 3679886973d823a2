"""The surcharge arithmetic any town's rules may ask for (outfall/law/surcharges.py), at its boundaries:
by the pound above a limit, per volume, per strength above a threshold, and a factor on the amount."""

from __future__ import annotations

from decimal import Decimal

import pytest

from outfall.law import surcharges as sur


def test_pounds_above_a_limit_of_any_parameter_and_a_rate_per_pound():
    # a FOG limit of 123 mg/L, 2.0 million gallons, 150 mg/L: 27 x 8.34 x 2.0 = 450.36 lb at $0.17
    pounds = sur.surcharge_pounds(2.0, 150.0, 123.0, 8.34)
    assert round(pounds, 6) == 450.36
    assert sur.surcharge_amount(pounds, "0.17") == Decimal("76.56")
    assert sur.surcharge_pounds(2.0, 123.0, 123.0, 8.34) == 0.0  # at the limit: nothing
    assert sur.surcharge_amount(sur.surcharge_pounds(2.0, 123.01, 123.0, 8.34), "0.17") == Decimal("0.03")


def test_per_volume_of_discharge():
    assert sur.volume_surcharge(0.001, "0.10", 1) == Decimal("100.00")  # 1,000 gallons at $0.10 a gallon
    assert sur.volume_surcharge(0.0015, "2.50", 1000) == Decimal("3.75")  # 1,500 gallons at $2.50 / 1,000
    assert sur.volume_surcharge(None, "0.10", 1) is None


def test_per_strength_above_a_threshold():
    # 300 mg/L is the threshold; 400 mg/L is one step of 100 mg/L; 10,000 gallons at $1 / 1,000 / step
    assert sur.strength_surcharge(0.01, 400.0, 300.0, "1.00", 1000, 100) == Decimal("10.00")
    assert sur.strength_surcharge(0.01, 300.0, 300.0, "1.00", 1000, 100) == Decimal("0.00")
    assert sur.strength_surcharge(0.01, 250.0, 300.0, "1.00", 1000, 100) == Decimal("0.00")
    assert sur.strength_surcharge(0.01, 350.0, 300.0, "1.00", 1000, 100) == Decimal("5.00")
    assert sur.strength_surcharge(0.01, None, 300.0, "1.00", 1000, 100) is None


def test_a_factor_on_the_amount():
    assert sur.multiplied(Decimal("76.56"), Decimal("1.2")) == Decimal("91.87")  # 91.872
    assert sur.multiplied(Decimal("0.05"), Decimal("1.2")) == Decimal("0.06")
    assert sur.multiplied(Decimal("10.00"), None) == Decimal("10.00")
    assert sur.multiplied(None, Decimal("1.2")) is None


# ------------------------------------------------------------------ contract 8.8


def test_a_factor_on_a_surcharge_rounds_once_not_twice():
    # 380.2118 lb x $0.17 = $64.636006 exact; x 1.2 = $77.5632 -> $77.56. Rounded to $64.64 first and
    # again after the factor it would be $77.57: a cent too much.
    exact = sur.pounds_amount_exact(380.2118, "0.17")
    assert exact == Decimal("64.636006")
    assert sur.multiplied(exact, Decimal("1.2")) == Decimal("77.56")
    assert sur.multiplied(sur.cents(exact), Decimal("1.2")) == Decimal("77.57")  # the old double rounding
    assert sur.multiplied(exact, None) == Decimal("64.64")


@pytest.mark.parametrize(
    ("flow_mg", "charged_on", "expected"),
    [
        (0.3, "gallons_over", (10000.0, 0.0)),  # 10,000 gallons a day: at the threshold, not over it
        (0.30003, "gallons_over", (10001.0, 30.0)),  # one gallon a day over, 30 days
        (0.30003, "all_gallons", (10001.0, 300030.0)),  # over: every gallon of the month
        (0.29, "all_gallons", (pytest.approx(9666.67, abs=0.01), 0.0)),  # under: nothing
        (None, "gallons_over", (None, None)),  # no volume: not judged
    ],
)
def test_a_flow_surcharge_is_charged_only_over_its_gallons_a_day(flow_mg, charged_on, expected):
    assert sur.flow_gallons_charged(flow_mg, 30, 10000, charged_on) == expected


def test_a_flow_surcharge_amount_and_the_volume_in_the_laws_unit():
    assert sur.flow_surcharge_exact(30.0, "2.00", 1000) == Decimal("0.06")
    # 1,080,000 gallons is 1,443.75 hundred cubic feet (748.05 gallons each) and 1,080 thousand gallons
    assert sur.volume_in(1.08, "hundred_cubic_feet") == pytest.approx(1443.75)
    assert sur.volume_in(1.08, "thousand_gallons") == pytest.approx(1080.0)
    assert sur.volume_in(1.08, "million_gallons") == pytest.approx(1.08)
    # a threshold, not a limit: the pounds count from it, and at it there are none
    assert sur.surcharge_pounds(1443.75, 250.0, 250.0, 0.0062321) == 0.0
    assert sur.surcharge_pounds(1443.75, 250.0, 200.0, 0.0062321) == pytest.approx(449.8797, abs=1e-4)
