"""Water and sewer inspection fees of Woodbury Code ch. 301, worked by hand."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st
from pydantic import ValidationError

from outfall.law.fees import ConnectionPermit, fee_schedule_from_rules, inspection_fees
from outfall.rules import load_rules
from outfall.rules.fees import FeeEntry

SCHEDULE = fee_schedule_from_rules(load_rules("woodbury").inspection_fees)
D = dt.date
M = Decimal


def permit(use="single_family", water=True, sewer=True, mall=None, applied_on=D(2026, 4, 1)):
    return ConnectionPermit(
        permit_id="W-1",
        parcel_id="P-9",
        use=use,
        water=water,
        sewer=sewer,
        in_mall_or_business_park=mall,
        applied_on=applied_on,
    )


def fees(p):
    f = inspection_fees(p, SCHEDULE)
    return f.water_fee_usd, f.sewer_fee_usd, f.total_usd


def test_single_family_300_and_300():
    # schedule A: $300 water service line + $300 house sewer lateral = $600.00.
    assert fees(permit()) == (M("300.00"), M("300.00"), M("600.00"))
    f = inspection_fees(permit(), SCHEDULE)
    assert (f.permit_id, f.parcel_id) == ("W-1", "P-9")
    assert f.rule.startswith("Woodbury Code ch. 301, fee schedule A")


def test_only_the_inspection_asked_for_is_charged():
    # water only: 300 + 0.00 = 300.00; sewer only: 0.00 + 300 = 300.00.
    assert fees(permit(sewer=False)) == (M("300.00"), M("0.00"), M("300.00"))
    assert fees(permit(water=None)) == (M("0.00"), M("300.00"), M("300.00"))
    # neither: all 0.00, and the rule says no inspection was asked for.
    assert fees(permit(water=False, sewer=False)) == (M("0.00"), M("0.00"), M("0.00"))
    assert inspection_fees(permit(water=False, sewer=None), SCHEDULE).rule.startswith(
        "No water or sewer inspection"
    )


def test_commercial_not_in_a_mall_400_and_400():
    # schedule B: $400 water line + $400 sewer line = $800.00; a blank mall flag is "not in one".
    assert fees(permit("commercial", mall=False)) == (M("400.00"), M("400.00"), M("800.00"))
    assert fees(permit("commercial", mall=None)) == (M("400.00"), M("400.00"), M("800.00"))
    assert fees(permit("commercial", sewer=False)) == (M("400.00"), M("0.00"), M("400.00"))
    assert inspection_fees(permit("commercial"), SCHEDULE).rule.startswith(
        "Woodbury Code ch. 301, fee schedule B"
    )


def test_commercial_in_a_mall_is_not_in_the_schedule():
    for water, sewer in ((True, True), (True, False), (False, False)):
        f = inspection_fees(permit("commercial", water=water, sewer=sewer, mall=True), SCHEDULE)
        assert (f.water_fee_usd, f.sewer_fee_usd, f.total_usd) == (None, None, None)
        assert f.rule.startswith(
            "Woodbury Code ch. 301 sets no inspection fee for a commercial use within a shopping mall"
        )
        assert "contract" not in f.rule.lower()


def test_single_family_flagged_in_a_mall_still_pays_schedule_a():
    # schedule A has no mall condition.
    assert fees(permit(mall=True)) == (M("300.00"), M("300.00"), M("600.00"))


def test_the_entry_in_effect_on_the_day_applied_for():
    # The schedule as excerpted is certain from 1997-12-18 (schedule A's amendment).
    f = inspection_fees(permit(applied_on=D(1997, 12, 17)), SCHEDULE)
    assert (f.total_usd, f.rule) == (None, SCHEDULE.not_in_effect)
    assert fees(permit(applied_on=D(1997, 12, 18))) == (M("300.00"), M("300.00"), M("600.00"))
    # a new fee from 2027 replaces the old one from its first day
    old = SCHEDULE.entries[0].model_copy(update={"effective_to": D(2026, 12, 31)})
    new = FeeEntry(
        use="single_family",
        water_usd=M("350"),
        sewer_usd=M("325"),
        rule="Woodbury Code ch. 301 A as amended.",
        effective_from=D(2027, 1, 1),
    )
    changed = SCHEDULE.model_copy(update={"entries": (old, new, *SCHEDULE.entries[1:])})
    assert inspection_fees(permit(applied_on=D(2026, 12, 31)), changed).total_usd == M("600.00")
    # 2027: 350 + 325 = 675.00
    assert inspection_fees(permit(applied_on=D(2027, 1, 1)), changed).total_usd == M("675.00")
    # two entries in effect at once: refused, naming the fix
    overlapping = SCHEDULE.model_copy(
        update={"entries": (SCHEDULE.entries[0], new.model_copy(update={"effective_from": D(2026, 1, 1)}))}
    )
    with pytest.raises(ValueError, match="effective_to"):
        inspection_fees(permit(), overlapping)


def test_a_use_outside_the_two_words_is_refused():
    with pytest.raises(ValidationError):
        permit(use="industrial")


@settings(max_examples=200, deadline=None)
@given(
    use=st.sampled_from(["single_family", "commercial"]),
    water=st.none() | st.booleans(),
    sewer=st.none() | st.booleans(),
    mall=st.none() | st.booleans(),
    applied_on=st.dates(min_value=D(1997, 12, 18), max_value=D(2040, 12, 31)),
)
def test_total_is_the_sum_of_the_fees_asked_for(use, water, sewer, mall, applied_on):
    f = inspection_fees(permit(use, water, sewer, mall, applied_on), SCHEDULE)
    if use == "commercial" and mall:
        assert f.total_usd is None and f.water_fee_usd is None and f.sewer_fee_usd is None
        return
    assert f.total_usd == f.water_fee_usd + f.sewer_fee_usd
    assert (f.water_fee_usd > 0) == bool(water)
    assert (f.sewer_fee_usd > 0) == bool(sewer)
    assert f.rule.endswith(".")
