"""Contract 8.8's rules model: an amount set elsewhere (reported as set there, never 0, never refused), the
optional parts of notices and penalties (a duty left out is not judged, and says so), and the readings'
words."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

from assets.billing.charges import bill_row, charge_row
from outfall.rules import RulesError, parse_rules
from outfall.rules.amounts import SetElsewhere, amount, set_by, shown
from tests.conftest import REPO

HEAD = """
jurisdiction: testville
name: City of Testville
version: "1"
timezone: America/Chicago
"""

VOLUME = """
charge_model: volume
volume_charges:
  citation: "Testville Code 9.04"
  period: quarter
  unit: hundred_cubic_feet
  rates:
    - {usd_per_unit: {set_by: "Appendix A"}, minimum_usd: "20.00", citation: "9.04(a)", effective_from: null}
  fixed:
    - name: capital charge
      by_meter_size: [{max_in: null, usd: 10}]
      citation: "9.04(k)"
      effective_from: null
law_names:
  sewer_rates:
    - {name: "Testville Code chapter 9", short: "Testville ch. 9", citation: "ch. 9", effective_from: null}
"""


def rules(text: str):
    return parse_rules(HEAD + text, Path("testville.yaml"))


def test_an_amount_set_elsewhere_is_read_and_said_never_zero():
    r = rules(VOLUME)
    rate = r.volume_charges.rates[0]
    assert isinstance(rate.usd_per_unit, SetElsewhere) and amount(rate.usd_per_unit) is None
    assert (
        set_by(rate.usd_per_unit).set_by == "Appendix A" and shown(rate.usd_per_unit) == "set by Appendix A"
    )
    assert amount(rate.minimum_usd) == Decimal("20.00") and shown(rate.minimum_usd) == "$20.00"


def test_a_charge_whose_rate_is_set_elsewhere_shows_its_volume_and_no_total():
    use = {
        "parcel_id": "P-1",
        "period_start": dt.date(2026, 1, 1),
        "period_end": dt.date(2026, 3, 31),
        "outside_limits": False,
        "metered": True,
        "meter_size_in": 0.75,
        "volume": 12.5,
        "unit": "hundred_cubic_feet",
    }
    row = charge_row(rules(VOLUME), use)
    assert row["billed_volume"] == 12.5 and row["volume_usd"] is None and row["total_usd"] is None
    assert row["fixed_usd"] == Decimal("10.00") and row["amounts_set_by"] == "set by Appendix A"
    assert "12.5 hundred cubic feet x rate set by Appendix A" in row["explanation"]


def test_a_users_bill_adds_its_charges_and_surcharges_each_shown():
    period = {
        "user_id": "U-1",
        "name": "Dairy",
        "parcel_id": "P-1",
        "period_start": dt.date(2026, 4, 1),
        "period_end": dt.date(2026, 6, 30),
        "fixed_usd": Decimal("35.00"),
        "total_usd": Decimal("230.81"),
        "amounts_set_by": None,
        "explanation": "18.3 hundred cubic feet x $10.70 = $195.81; capital charge: $35.00",
        "rule": "917.04",
    }
    surcharge = {
        "period_start": dt.date(2026, 5, 1),
        "kind": "pounds",
        "parameter": "BOD",
        "amount_usd": Decimal("106.34"),
        "amount_set_by": None,
        "rule": "13.12.810",
    }
    bill = bill_row(period, [surcharge, {**surcharge, "period_start": dt.date(2026, 6, 1)}])
    # fixed 35.00 + volume 195.81 + surcharges 2 x 106.34 = 443.49
    assert (bill["fixed_usd"], bill["volume_usd"], bill["surcharges_usd"]) == (
        Decimal("35.00"),
        Decimal("195.81"),
        Decimal("212.68"),
    )
    assert bill["total_usd"] == Decimal("443.49") and bill["surcharges"] == 2
    # a surcharge whose amount is set elsewhere: shown as set there, the total waits for it
    waiting = bill_row(period, [{**surcharge, "amount_usd": None, "amount_set_by": "set by Appendix B"}])
    assert waiting["total_usd"] is None and waiting["surcharges_set_by"] == "set by Appendix B"
    assert "amount set by Appendix B" in waiting["explanation"]


def test_each_part_of_notices_and_penalties_may_be_left_out_and_is_then_not_judged():
    r = rules(
        """
discharge_limits:
  - {parameter: BOD, limit_type: max, value: 200, unit: mg/L, citation: "1.05", effective_from: null}
notices:
  sewer_correction:
    - {set_per_notice: true, words: "a reasonable time", citation: "1.99(a)", effective_from: null}
penalties:
  sewer_use:
    - {fine_max_usd: 500, imprisonment_max_months: 6, per: day, citation: "1.99(b)", effective_from: null}
law_names:
  sewer_use:
    - {name: "Testville Code chapter 1", short: "Testville ch. 1", citation: "ch. 1", effective_from: null}
"""
    )
    day = dt.date(2026, 6, 1)
    assert r.judged("notices.sewer_correction", day) and r.judged("penalties.sewer_use", day)
    assert r.notices.sewer_correction[0].default_days is None  # set per notice
    assert r.penalties.sewer_use[0].civil_max_usd is None  # no civil part: never stated, never summed
    slug = r.judged("notices.slug_report", day)
    assert not slug and slug.reason == (
        "not judged: the rules of City of Testville state no period for a written report of a slug discharge"
    )
    assert not r.judged("sewer_enforcement.section_text.grease")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (
            "penalties:\n  sewer_use:\n    - {per: day, citation: x, effective_from: null}\n",
            "give at least one of fine_max_usd, imprisonment_max_days (or _months) and civil_max_usd",
        ),
        (
            "notices:\n  sewer_correction:\n    - {citation: x, effective_from: null}\n",
            "give max_days (the law's maximum), days, or set_per_notice: true",
        ),
        (
            "surcharge:\n  rates:\n    - {parameter: BOD, usd_per_lb: {setby: A}, citation: x, "
            "effective_from: null}\n",
            "unknown key 'setby' (the keys here are: set_by, citation)",
        ),
        (
            "readings_enforcement:\n  surcharge_threshold:\n    - {value: part2_limits, citation: x, "
            "effective_from: null}\n",
            "'part2_limits' is not a reading this version of Outfall implements: it implements only "
            "'code_limit'",
        ),
        (
            "surcharge:\n  method:\n    - {lbs_per_mg_per_mgl: 8.34, parameters: [BOD], citation: x, "
            "effective_from: null}\n  thresholds:\n    - {parameter: TSS, value: 250, unit: mg/L, "
            "citation: x, effective_from: null}\n",
            "surcharge.thresholds[0]: TSS is not surcharged (method lists BOD)",
        ),
        (
            "surcharge:\n  method:\n    - {lbs_per_mg_per_mgl: 8.34, parameters: [BOD], citation: x, "
            "effective_from: null}\n  thresholds:\n    - {parameter: BOD, value: 250, unit: mg/L, "
            "citation: x, effective_from: null}\n    - {parameter: BOD, value: 300, unit: mg/L, citation: y, "
            "effective_from: null}\n",
            "may not both be in effect on a day not stated in the code; correct the dates",
        ),
        (
            "surcharge:\n  method:\n    - {lbs_per_mg_per_mgl: 8.34, parameters: [BOD], citation: x, "
            'effective_from: null}\n  rates:\n    - {parameter: BOD, usd_per_lb: "set by Appendix B", '
            "citation: x, effective_from: null}\n",
            "usd_per_lb: 'set by Appendix B' is not a rate in dollars (write digits, e.g. 350 or 350.00; "
            "or {set_by: ...} where the law sets it in another document)",
        ),
        (
            "surcharge:\n  method:\n    - {lbs_per_mg_per_mgl: 8.34, parameters: [BOD], citation: x, "
            'effective_from: null}\n  rates:\n    - {parameter: BOD, usd_per_lb: {set_by: ""}, '
            "citation: x, effective_from: null}\n",
            'usd_per_lb: is empty: write where the law sets the amount (e.g. set_by: "Appendix A")',
        ),
        (
            "penalties:\n  sewer_use:\n    - {fine_max_usd: 500, per: day, "
            "words: 'a fine {fine} or {civil}', citation: x, effective_from: null}\n",
            "words leave out {per}, which the entry states and name {civil}, which the entry does not state",
        ),
        (
            "penalties:\n  sewer_use:\n    - {fine_max_usd: 500, words: '{fine} and {jail}', citation: x, "
            "effective_from: null}\n",
            "words name {jail}, no part of a penalty (fine, imprisonment, civil, per)",
        ),
    ],
)
def test_a_wrong_part_gets_a_clear_message(text, says):
    with pytest.raises(RulesError) as caught:
        rules(text)
    assert says in str(caught.value)


def test_the_old_word_of_a_reading_is_read_as_its_new_one_and_said():
    r = rules(
        "readings_enforcement:\n  surcharge_threshold:\n    - {value: part2_limit, citation: x, "
        "effective_from: null}\n"
    )
    assert r.readings_enforcement.surcharge_threshold[0].value == "code_limit"
    assert r.notes and "'part2_limit' is the old word for 'code_limit'" in r.notes[0]


def test_the_penalty_is_stated_as_its_section_states_it():
    """Contract 8.7: the section's own words with the amounts in their places, else each part stated."""
    from outfall.letters import format_money

    woodbury = parse_rules(
        (REPO / "rules" / "woodbury.yaml").read_text(encoding="utf-8"), Path("woodbury.yaml")
    )
    assert woodbury.penalties.sewer_use[0].statement(format_money) == (
        "each violation is an offense and may be punished by a fine not exceeding $250.00 or by imprisonment "
        "not exceeding 15 days, or by both; in lieu of, or in addition to, such fine or imprisonment, each "
        "violation is subject to a civil penalty not exceeding $250.00; each day a violation continues is "
        "subject to a separate fine, imprisonment or civil penalty"
    )
    fine_only = rules(
        "penalties:\n  sewer_use:\n    - {fine_max_usd: 2500, per: day, citation: x, effective_from: null}\n"
    )
    said = fine_only.penalties.sewer_use[0].statement(format_money)
    assert said == (
        "for each violation, a fine not exceeding $2,500.00; each day a violation continues is a separate "
        "violation"
    )
    assert "civil" not in said and "imprisonment" not in said  # a part the section lacks is not written
