"""Test oracle: the infiltration limit of Woodbury ch. 253 Part 2, as pure functions.

"The maximum allowable rate of infiltration into any section of a sewage system
shall not exceed 200 gallons per inch of pipe diameter per mile of sewer per
day." Contract section 4: allowable_gpd = 200 x diameter_in x length_ft / 5280;
gpimd = measured_gpd / (diameter_in x length_ft / 5280); a section passes when
measured_gpd <= allowable_gpd. The numbers come from the rules file
(``infiltration`` section, the version in effect on the test's day); nothing
here has a default. Production is SQL (``sql/sewer/insert_infiltration_results.sql``, run by
``assets/sewer/compliance.py``); this module is its independent test oracle
(tests/test_oracles.py), and nothing outside tests/ imports it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


def inch_miles(diameter_in: float, length_ft: float, feet_per_mile: float) -> float:
    """Pipe size in inch-miles: diameter (in) x length (mi)."""
    return diameter_in * length_ft / feet_per_mile


def allowable_gpd(
    diameter_in: float, length_ft: float, gal_per_inch_mile_day: float, feet_per_mile: float
) -> float:
    """>>> allowable_gpd(8, 5280, 200, 5280)
    1600.0"""
    # Same order of operations as sql/sewer/insert_infiltration_results.sql, so the
    # two give the same double.
    return gal_per_inch_mile_day * diameter_in * length_ft / feet_per_mile


def gpimd(measured_gpd: float, diameter_in: float, length_ft: float, feet_per_mile: float) -> float | None:
    """Gallons per inch-diameter per mile per day; None for a section of no size."""
    size = inch_miles(diameter_in, length_ft, feet_per_mile)
    return measured_gpd / size if size else None


def passes(measured_gpd: float, allowable: float) -> bool:
    """ "shall not exceed": equal passes."""
    return measured_gpd <= allowable


@dataclass(frozen=True)
class InfiltrationResult:
    section_id: str
    test_date: dt.date
    allowable_gpd: float
    measured_gpd: float
    gpimd: float | None
    passes: bool


def evaluate(
    section_id: str,
    test_date: dt.date,
    diameter_in: float,
    length_ft: float,
    measured_gpd: float,
    gal_per_inch_mile_day: float,
    feet_per_mile: float,
) -> InfiltrationResult:
    allowed = allowable_gpd(diameter_in, length_ft, gal_per_inch_mile_day, feet_per_mile)
    return InfiltrationResult(
        section_id,
        test_date,
        allowed,
        measured_gpd,
        gpimd(measured_gpd, diameter_in, length_ft, feet_per_mile),
        passes(measured_gpd, allowed),
    )
