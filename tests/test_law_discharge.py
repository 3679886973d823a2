"""Discharge limits of Woodbury ch. 253 Part 2 at the law's boundaries (pure functions)."""

import datetime as dt

import pytest

from outfall.law import discharge as d
from outfall.rules import load_rules

RULES = load_rules("woodbury")
DAY = dt.date(2026, 2, 3)


def default_limits() -> list[d.Limit]:
    return [
        d.Limit(
            lim.parameter,
            lim.limit_type,
            lim.value,
            lim.citation,
            "Part 2",
            None,
            lim.effective_from,
            lim.effective_to,
        )
        for lim in RULES.discharge_limits
    ]


def judge(
    parameter: str,
    value: float,
    unit: str,
    nondetect: bool = False,
    limits=None,
    user: str = "IU-1",
    day: dt.date = DAY,
) -> dict[str, str]:
    """Outcome per limit type of one result against the limits in effect."""
    canon, _ = d.to_canonical(value, unit, parameter)
    out = {}
    for limit_type in d.PER_SAMPLE_TYPES:
        lim = d.limit_in_effect(limits or default_limits(), user, parameter, limit_type, day)
        if lim is not None:
            out[limit_type] = d.evaluate(canon, lim.value, limit_type, nondetect)
    return out


def test_rules_hold_every_part2_limit():
    got = {(lim.parameter, lim.limit_type): lim.value for lim in RULES.discharge_limits}
    assert got == {
        ("BOD", "max"): 240,
        ("chlorine_demand", "max"): 25,
        ("COD", "max"): 600,
        ("TSS", "max"): 300,
        ("FOG", "max"): 100,
        ("temperature", "max"): 150,
        ("pH", "min"): 5.5,
        ("pH", "max"): 9.5,
    }
    assert RULES.table_7_1.limits == ()  # the Town Board's table: empty until adopted


@pytest.mark.parametrize(
    "parameter,limit,over",
    [
        ("BOD", 240, 240.01),
        ("chlorine_demand", 25, 25.01),
        ("COD", 600, 600.01),
        ("TSS", 300, 300.01),
        ("FOG", 100, 100.01),
        ("temperature", 150, 150.01),
        ("pH", 9.5, 9.51),
    ],
)
def test_in_excess_of_is_strictly_greater(parameter, limit, over):
    unit = {"temperature": "degF", "pH": "s.u."}.get(parameter, "mg/L")
    assert judge(parameter, limit, unit)["max"] == d.COMPLIANT
    assert judge(parameter, over, unit)["max"] == d.VIOLATION


def test_ph_lower_than_5_5_is_prohibited():
    assert judge("pH", 5.5, "s.u.") == {"min": d.COMPLIANT, "max": d.COMPLIANT}
    assert judge("pH", 5.49, "s.u.") == {"min": d.VIOLATION, "max": d.COMPLIANT}
    assert judge("pH", 9.51, "SU") == {"min": d.COMPLIANT, "max": d.VIOLATION}


def test_temperature_is_compared_in_degf():
    assert judge("temperature", 150, "degF")["max"] == d.COMPLIANT
    # 65 degC is the law's rounding of 150 degF: 65.5 degC = 149.9 degF complies
    assert d.to_canonical(65.5, "degC", "temperature") == pytest.approx((149.9, "degF"))
    assert judge("temperature", 65.5, "degC")["max"] == d.COMPLIANT
    assert judge("temperature", 65.6, "°C")["max"] == d.VIOLATION  # 150.08 degF


def test_concentration_units():
    assert d.to_canonical(240010, "ug/L", "BOD") == pytest.approx((240.01, "mg/L"))
    assert judge("BOD", 240000, "ug/L")["max"] == d.COMPLIANT
    assert judge("BOD", 240010, "µg/L")["max"] == d.VIOLATION
    assert judge("BOD", 240.01, "ppm")["max"] == d.VIOLATION
    assert judge("BOD", 240, "ppm")["max"] == d.COMPLIANT
    with pytest.raises(ValueError):
        d.to_canonical(7, "degF", "BOD")


def test_nondetects():
    # <X with X at or below a maximum: compliant; above it: inconclusive, never a violation
    assert judge("BOD", 240, "mg/L", nondetect=True)["max"] == d.COMPLIANT
    assert judge("BOD", 240.01, "mg/L", nondetect=True)["max"] == d.INCONCLUSIVE
    assert judge("BOD", 5000, "mg/L", nondetect=True)["max"] == d.INCONCLUSIVE
    # against a minimum: <X with X at or below it is certainly below the limit
    assert d.evaluate(5.5, 5.5, "min", nondetect=True) == d.VIOLATION
    assert d.evaluate(6.0, 5.5, "min", nondetect=True) == d.INCONCLUSIVE
    assert d.evaluate(None, 240, "max", nondetect=True) == d.INCONCLUSIVE


def test_exceedance_ratio():
    assert d.exceedance_ratio(480, 240, "max") == 2.0
    assert d.exceedance_ratio(5.0, 5.5, "min") == pytest.approx(1.1)
    assert d.exceedance_ratio(0, 5.5, "min") is None


def test_no_limit_defined_for_other_parameters():
    assert judge("copper", 250, "ug/L") == {}


PERMIT = d.Limit(
    "BOD",
    "max",
    400,
    "Special agreement 2026-1 (permit P-2)",
    "permit",
    "IU-2",
    dt.date(2026, 3, 1),
    dt.date(2026, 5, 31),
)


@pytest.mark.parametrize(
    "day,limit",
    [
        (dt.date(2026, 2, 28), 240),  # before the agreement
        (dt.date(2026, 3, 1), 400),  # first day
        (dt.date(2026, 5, 31), 400),  # last day (inclusive)
        (dt.date(2026, 6, 1), 240),  # after
    ],
)
def test_permit_limit_replaces_default_while_in_effect(day, limit):
    lim = d.limit_in_effect(default_limits() + [PERMIT], "IU-2", "BOD", "max", day)
    assert lim.value == limit
    # another user keeps the default
    assert d.limit_in_effect(default_limits() + [PERMIT], "IU-1", "BOD", "max", day).value == 240


def test_permit_limit_open_ends_and_overlap():
    open_end = d.Limit("BOD", "max", 300, "SA-open", "permit", "IU-2", dt.date(2026, 1, 1), None)
    later = d.Limit("BOD", "max", 350, "SA-later", "permit", "IU-2", dt.date(2026, 4, 1), None)
    no_dates = d.Limit("COD", "max", 900, "SA-any", "permit", "IU-2")
    limits = default_limits() + [open_end, later, no_dates]
    assert d.limit_in_effect(limits, "IU-2", "BOD", "max", dt.date(2030, 1, 1)).rule == "SA-later"
    assert d.limit_in_effect(limits, "IU-2", "BOD", "max", dt.date(2026, 3, 31)).rule == "SA-open"
    assert d.limit_in_effect(limits, "IU-2", "cod", "max", dt.date(1990, 1, 1)).value == 900


def test_permit_limit_replaces_only_its_own_type():
    ph_max = d.Limit("pH", "max", 10.5, "SA-ph", "permit", "IU-1", None, None)
    limits = default_limits() + [ph_max]
    assert judge("pH", 10.0, "s.u.", limits=limits) == {"min": d.COMPLIANT, "max": d.COMPLIANT}
    assert judge("pH", 5.4, "s.u.", limits=limits) == {"min": d.VIOLATION, "max": d.COMPLIANT}


def test_permit_rule_text():
    assert d.permit_rule("Special agreement 7", "P-9", "x") == "Special agreement 7 (permit P-9)"
    assert (
        d.permit_rule("  ", None, "ch. 253 Part 2, special agreements")
        == "ch. 253 Part 2, special agreements"
    )


def test_nondetect_policies_and_statistics():
    assert d.nondetect_value(10, "zero") == 0
    assert d.nondetect_value(10, "half_dl") == 5
    assert d.nondetect_value(10, "dl") == 10
    with pytest.raises(ValueError):
        d.nondetect_value(10, "median")
    day = [d.Result(300, False, "grab"), d.Result(100, False, "grab")]
    assert d.daily_value(day, "half_dl") == (200, 2)  # mean of the grabs
    assert d.daily_value(day + [d.Result(150, False, "composite")], "half_dl") == (150, 1)  # the composite
    month = [d.Result(100), d.Result(200), d.Result(60, nondetect=True)]
    assert d.monthly_average(month, "zero") == (100, 3)
    assert d.monthly_average(month, "half_dl") == (110, 3)
    assert d.monthly_average(month, "dl") == pytest.approx((120, 3))
    assert d.statistic_breaks(240.01, 240) and not d.statistic_breaks(240, 240)
    assert RULES.nondetect_averaging.at(DAY).default in d.NONDETECT_POLICIES
