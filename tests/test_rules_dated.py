"""Rules change by local law on a date: the version in effect on the day of the violation, the reading
or the bill applies, and only from that day. Each change here is made the way CONTRIBUTING.md's recipes
say: close the version in effect, add the new one after it, touch nothing but the rules file."""

from __future__ import annotations

import datetime as dt
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from outfall.law import slug as slug_law
from outfall.law import swppp as swppp_law
from outfall.paths import RULES_DIR
from outfall.rules import RulesError, load_rules, parse_rules

D = dt.date
CHANGE = D(2027, 1, 1)

NEW_BELLPORT_PENALTY = """      effective_to: 2026-12-31
    - citation: "Bellport Local Law No. 1 of 2027 (test): penalties"
      per: week
      lookback_years: 5
      tiers:
        - {offense: 1, min_usd: 0, max_usd: 500}
        - {offense: 2, min_usd: 500, max_usd: 1000}
        - {offense: 3, min_usd: 1000, max_usd: 2000}
      effective_from: 2027-01-01
"""

NEW_SLUG_RATIO = """    effective_to: 2026-12-31
  - ratio: 4
    min_duration_min: 15
    baseline_days: 30
    min_baseline_days: 7
    gap_factor: 1.5
    citation: "Woodbury Local Law No. 2 of 2027 (test): definitions, SLUG"
    effective_from: 2027-01-01
"""


def changed(tmp_path: Path, jurisdiction: str, after: str, insert: str) -> Path:
    """A copy of the rules with ``insert`` placed right after the text ``after`` (its first occurrence)."""
    folder = tmp_path / "rules"
    shutil.copytree(RULES_DIR, folder)
    path = folder / f"{jurisdiction}.yaml"
    text = path.read_text()
    assert after in text
    at = text.index(after) + len(after)
    path.write_text(text[:at] + insert + text[at:])
    return folder


def bellport_with_new_penalty(tmp_path: Path):
    folder = changed(tmp_path, "bellport", "max_usd: 1000}\n      effective_from: 2007-01-01\n", "")
    text = (folder / "bellport.yaml").read_text()
    marker = "max_usd: 1000}\n      effective_from: 2007-01-01\n"
    (folder / "bellport.yaml").write_text(text.replace(marker, marker + NEW_BELLPORT_PENALTY, 1))
    return load_rules("bellport", folder)


def test_bellport_penalty_changed_from_a_date_prices_only_violations_from_then(tmp_path):
    rules = bellport_with_new_penalty(tmp_path)
    penalty = rules.penalties.stormwater
    assert penalty.at(CHANGE - dt.timedelta(days=1)).tier(1).max_usd == Decimal("350")
    assert penalty.at(CHANGE).tier(1).max_usd == Decimal("500")
    assert penalty.at(D(2012, 5, 1)).tier(3).max_usd == Decimal("1000")       # history untouched
    assert penalty.at(CHANGE).tier(3).max_usd == Decimal("2000")

    # A notice of violation priced by the rules of its violation's day (outfall.law.swppp), both notices
    # written on the same day:
    site = swppp_law.SiteRecord("S-1", "bellport", "Harbor Lots", "1 Bay Rd", "Acme Builders", D(2026, 10, 1))
    notices = {}
    for due_by in (D(2026, 12, 30), D(2027, 1, 6)):       # violations on Dec 31, 2026 and Jan 7, 2027
        v = swppp_law.Violation("S-1", "weekly", due_by - dt.timedelta(days=7), due_by, "late", due_by + dt.timedelta(2),
                                2, "Bellport Code ch. 21 (test)")
        day = due_by + dt.timedelta(days=1)
        notices[day] = swppp_law.build_notice(v, site, "a qualified professional", 0, D(2027, 2, 1), rules)
    before, after = notices[D(2026, 12, 31)], notices[D(2027, 1, 7)]
    assert (before["fine_max_usd"], after["fine_max_usd"]) == (Decimal("350.00"), Decimal("500.00"))
    assert "$350.00" in before["penalty_statement"] and "Bellport Code ch. 21" in before["penalty_statement"]
    assert "$500.00" in after["penalty_statement"] and "Local Law No. 1 of 2027" in after["penalty_statement"]


def test_woodbury_slug_ratio_changed_from_a_date_applies_to_readings_from_that_day(tmp_path):
    folder = changed(tmp_path, "woodbury", "the daily means of the 30 days before\"\n    effective_from: 1986-11-20\n",
                     NEW_SLUG_RATIO)
    rules = load_rules("woodbury", folder)
    baseline, reading = 100.0, 450.0                     # 4.5 times the baseline
    last_old, first_new = CHANGE - dt.timedelta(days=1), CHANGE
    assert rules.slug.at(last_old).ratio == 5 and rules.slug.at(first_new).ratio == 4
    assert not slug_law.is_high(reading, baseline, rules.slug.at(last_old).ratio)
    assert slug_law.is_high(reading, baseline, rules.slug.at(first_new).ratio)
    # Everything else about slugs is unchanged, and the old version keeps its own citation.
    assert rules.slug.at(first_new).min_duration_min == rules.slug.at(last_old).min_duration_min == 15
    assert "Local Law No. 2 of 2027" in rules.slug.at(first_new).citation
    assert rules.slug.at(last_old).citation.startswith("Woodbury Code ch. 253 Part 2")


def test_a_new_version_without_closing_the_old_one_is_refused(tmp_path):
    text = NEW_SLUG_RATIO.split("\n", 1)[1]               # the new version, the old one left open
    folder = changed(tmp_path, "woodbury", "the daily means of the 30 days before\"\n    effective_from: 1986-11-20\n", text)
    with pytest.raises(RulesError) as err:
        load_rules("woodbury", folder)
    assert "slug[1]: is in effect from 2027-01-01 with no end date, and so is entry [0]" in str(err.value)
    assert "give entry [0] effective_to: 2026-12-31" in str(err.value)


def test_a_gap_between_versions_is_an_error_on_the_days_it_leaves_uncovered(tmp_path):
    gap = NEW_SLUG_RATIO.replace("effective_to: 2026-12-31", "effective_to: 2026-11-30")
    folder = changed(tmp_path, "woodbury", "the daily means of the 30 days before\"\n    effective_from: 1986-11-20\n", gap)
    rules = load_rules("woodbury", folder)
    assert rules.slug.at(D(2026, 11, 30)).ratio == 5
    with pytest.raises(RulesError, match=r"woodbury.yaml: slug: no entry in effect on 2026-12-15 "
                                         r"\(entries: from 1986-11-20 through 2026-11-30; from 2027-01-01"):
        rules.slug.at(D(2026, 12, 15))


def test_both_ends_are_included():
    rules = load_rules("bellport")
    first = rules.penalties.stormwater[0]
    assert first.in_effect(first.effective_from)
    assert not first.in_effect(first.effective_from - dt.timedelta(days=1))


def test_limits_of_the_same_parameter_may_not_overlap_but_others_may():
    text = (RULES_DIR / "woodbury.yaml").read_text()
    extra = ("  - {parameter: BOD5, limit_type: max, value: 200, unit: mg/L, citation: \"test\", "
             "effective_from: 2027-01-01}\n")
    marker = "  # Metals and Table 7-1 substances: the Town Board sets these limits\n"
    with pytest.raises(RulesError) as err:
        parse_rules(text.replace(marker, extra + marker), Path("woodbury.yaml"))
    assert "discharge_limits[8]: is in effect from 2027-01-01 with no end date, and so is entry [0] for BOD max" \
        in str(err.value)
    other = extra.replace("BOD5", "COD").replace("limit_type: max", "limit_type: monthly_avg")
    rules = parse_rules(text.replace(marker, other + marker), Path("woodbury.yaml"))
    assert {(lim.parameter, lim.limit_type) for lim in rules.discharge_limits.at(CHANGE)} >= {
        ("COD", "max"), ("COD", "monthly_avg")}
    assert len(rules.discharge_limits.at(D(2026, 12, 31))) == 8


def test_surcharge_rate_adopted_from_a_date():
    text = (RULES_DIR / "woodbury.yaml").read_text()
    rates = ("  rates:\n    - {parameter: BOD, usd_per_lb: 0.2, adopted_by: \"Resolution 2027-1 (test)\", "
             "citation: \"test\", effective_from: 2027-03-01}\n")
    rules = parse_rules(text.replace("  rates: []\n", rates), Path("woodbury.yaml"))
    assert rules.surcharge.rate("BOD", D(2027, 2, 28)) is None
    assert rules.surcharge.rate("bod5", D(2027, 3, 1)).usd_per_lb == Decimal("0.2")
    assert rules.surcharge.rate("TSS", D(2027, 3, 1)) is None
    with pytest.raises(RulesError, match=r"surcharge.rates\[0\]: COD is not surcharged"):
        parse_rules(text.replace("  rates: []\n", rates.replace("BOD", "COD")), Path("woodbury.yaml"))
