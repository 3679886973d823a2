"""The surcharge arithmetic any town's rules may ask for (outfall/law/surcharges.py), at its boundaries:
by the pound above a limit, per volume, per strength above a threshold, and a factor on the amount."""

from __future__ import annotations

from decimal import Decimal

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
