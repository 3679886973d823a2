"""The infiltration oracle (tests/oracles/infiltration.py) at the boundary of Woodbury ch. 253 Part 2."""

import datetime as dt

import pytest

from outfall.rules import load_rules
from tests.oracles import infiltration as inf

SECTION = load_rules("woodbury").infiltration.at(dt.date(2026, 5, 1))
GAL = SECTION.gal_per_inch_diameter_per_mile_per_day
FPM = SECTION.feet_per_mile


def test_rules_numbers():
    assert (GAL, FPM) == (200, 5280)
    assert "200 gallons per inch of pipe diameter per mile" in SECTION.citation


def test_allowable_is_200_gallons_per_inch_mile_day():
    assert inf.allowable_gpd(8, 5280, GAL, FPM) == 1600.0
    assert inf.allowable_gpd(8, 2640, GAL, FPM) == 800.0
    assert inf.allowable_gpd(12, 1000, GAL, FPM) == pytest.approx(200 * 12 * 1000 / 5280)
    assert inf.inch_miles(8, 5280, FPM) == 8.0


@pytest.mark.parametrize("measured,ok", [(1599.99, True), (1600, True), (1600.01, False), (1601, False)])
def test_shall_not_exceed_so_equal_passes(measured, ok):
    result = inf.evaluate("MH1-MH2", dt.date(2026, 5, 1), 8, 5280, measured, GAL, FPM)
    assert result.passes is ok
    assert result.allowable_gpd == 1600.0
    assert result.gpimd == pytest.approx(measured / 8)


def test_gpimd_of_a_section_of_no_size():
    assert inf.gpimd(100, 0, 100, FPM) is None
