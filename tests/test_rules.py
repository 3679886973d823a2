"""The rules loader: the shipped files load into typed models, every entry cited and dated,
and the deprecated untyped view still answers in the old shape (for consumers not yet converted)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest
import yaml

from outfall import vocab
from outfall.paths import RULES_DIR
from outfall.rules import Dated, DischargeLimit, Entries, Rules, RulesError, Versions, load_all, load_rules
from outfall.rules import _parse_limits
from outfall.rules.loader import read_yaml

D = dt.date


def _walk_dated(value, path=""):
    """Every dated entry of a model, with its path."""
    if isinstance(value, Dated):
        yield path, value
    if isinstance(value, (Versions, Entries, list, tuple)):
        for i, item in enumerate(value):
            yield from _walk_dated(item, f"{path}[{i}]")
    elif hasattr(value, "model_fields"):
        for name in type(value).model_fields:
            yield from _walk_dated(getattr(value, name), f"{path}.{name}" if path else name)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _walk_dated(v, f"{path}.{k}")


def test_shipped_rules_load_typed_and_cite_everything():
    rules = load_all()
    assert set(rules) == set(vocab.JURISDICTIONS)
    for jurisdiction, r in rules.items():
        assert isinstance(r, Rules) and r.jurisdiction == jurisdiction and r.version == "2026.12.1"
        dated = list(_walk_dated(r))
        assert len(dated) > 20
        for path, entry in dated:
            assert entry.citation.strip(), path
            assert isinstance(entry.effective_from, dt.date), path
    woodbury = rules["woodbury"]
    assert {(l.parameter, l.limit_type): l.value for l in woodbury.discharge_limits} == {
        ("BOD", "max"): 240, ("chlorine_demand", "max"): 25, ("COD", "max"): 600, ("TSS", "max"): 300,
        ("FOG", "max"): 100, ("temperature", "max"): 150, ("pH", "min"): 5.5, ("pH", "max"): 9.5}
    assert set(woodbury.sewer_units.at(D(2026, 1, 1)).classes) == set(vocab.PROPERTY_CLASSES)
    assert woodbury.readings.exceedance_is_strict.at(D(2026, 1, 1)).value is True
    assert rules["bellport"].penalties.stormwater.at(D(2026, 1, 1)).per == "week"
    assert woodbury.penalties.stormwater.at(D(2026, 1, 1)).per == "day"
    assert woodbury.timezone == "America/New_York"


def test_money_is_decimal_and_dates_are_dates():
    bellport = load_rules("bellport")
    tier = bellport.penalties.stormwater.at(D(2026, 6, 1)).tier(1)
    assert tier.max_usd == Decimal("350") and isinstance(tier.max_usd, Decimal)
    assert bellport.penalties.stormwater.at(D(2026, 6, 1)).tier(7).offense == 3   # the last tier covers later ones
    sewer_use = load_rules("woodbury").penalties.sewer_use.at(D(2026, 6, 1))
    assert (sewer_use.fine_max_usd, sewer_use.civil_max_usd) == (Decimal("250"), Decimal("250"))


def test_not_adopted_stays_empty():
    # The law leaves these to the Town Board; nothing is adopted, so nothing is invented.
    woodbury = load_rules("woodbury")
    assert len(woodbury.table_7_1.limits) == 0
    assert len(woodbury.surcharge.rates) == 0
    assert woodbury.surcharge.rate("BOD", D(2026, 6, 1)) is None
    assert woodbury.section("surcharge")["rate_usd_per_lb"] == {}
    text = (RULES_DIR / "woodbury.yaml").read_text()
    assert "0.35" not in text.split("rates: []")[1] and "rate_usd_per_lb" not in text


def test_discharge_limits_in_effect_and_canonical_units():
    limit = load_rules("woodbury").discharge_limits[0]
    assert isinstance(limit, DischargeLimit)
    assert limit.in_effect(D(2026, 1, 1))
    assert not limit.in_effect(D(1980, 1, 1))
    assert load_rules("woodbury").discharge_limits.at(D(1980, 1, 1)) == ()
    # A limit written in ug/L or degC is held in the canonical unit; the file's words are kept for the docs.
    text = """
      - {parameter: copper, limit_type: max, value: 500, unit: ug/L, adopted_by: "Resolution 1", citation: c,
         effective_from: 2027-01-01}
      - {parameter: temperature, limit_type: max, value: 65, unit: degC, adopted_by: "Resolution 1", citation: c,
         effective_from: 2027-01-01}"""
    copper, temperature = _parse_limits(yaml.safe_load(text), "test")
    assert (copper.value, copper.unit, copper.as_written) == (0.5, "mg/L", (500, "ug/L"))
    assert temperature.value == pytest.approx(149.0) and temperature.unit == "degF"


def test_versions_at_a_day_none_covers_names_the_section_and_day():
    woodbury = load_rules("woodbury")
    with pytest.raises(RulesError) as err:
        woodbury.nondetect_averaging.at(D(2025, 12, 31))        # the policy was adopted 2026-01-01
    message = str(err.value)
    assert "woodbury.yaml: nondetect_averaging: no entry in effect on 2025-12-31" in message
    assert "from 2026-01-01" in message and "\n" not in message
    with pytest.raises(RulesError, match=r"swppp\.storm_inspection: no entry in effect on 2006-12-31"):
        woodbury.swppp.storm_inspection.at(D(2006, 12, 31))
    with pytest.raises(RulesError, match="no reading named 'no_such_reading' in readings"):
        woodbury.reading_at("readings", "no_such_reading", D(2026, 1, 1))
    assert woodbury.reading_at("readings_enforcement", "self_monitoring_town_words", D(2026, 1, 1)) == ["town", "potw"]


# ------------------------------------------------- the deprecated untyped view


def test_compatibility_view_answers_in_the_old_shape():
    woodbury, bellport = load_rules("woodbury"), load_rules("bellport")
    # Sections as the consumers read them today.
    assert woodbury.section("slug")["ratio"] == 5 and woodbury.section("slug")["citation"].startswith("Woodbury")
    assert woodbury.section("notices")["sewer_correction_max_days"] == 30
    assert woodbury.section("notices")["citation_permit_expiry"].startswith("Outfall administrative policy")
    sw = woodbury.section("swppp")
    assert (sw["weekly_interval_days"], sw["storm_threshold_in"], sw["storm_window_days"]) == (7, 0.5, 1)
    assert sw["citation_storm"].startswith("Woodbury Code ch. 267") and sw["conditions"]["condition_b"]["min_disturbed_acres"] == 5
    assert bellport.section("swppp")["applicability"]["rule"] == "conditions_abc"
    assert "conditions" not in bellport.section("swppp") and "report_delivery" not in bellport.section("swppp")
    assert bellport.raw["penalties"]["stormwater"]["tiers"][0] == {"offense": 1, "min_usd": 0, "max_usd": 350}
    assert woodbury.section("sewer_units")["classes"]["restaurant"]["tiers"][-1] == {"max": None, "units": 10}
    assert woodbury.reading("exceedance_is_strict") is True
    assert woodbury.raw["readings_enforcement"]["self_monitoring_town_words"]["value"] == ["town", "potw"]
    assert woodbury.raw["timezone"] == "America/New_York"
    assert woodbury.has("sewer_units") and not bellport.has("sewer_units")
    with pytest.raises(RulesError, match="no 'sewer_units' section for Village of Bellport"):
        bellport.section("sewer_units")
    with pytest.raises(RulesError, match="no reading named 'nope'"):
        woodbury.reading("nope")


def test_compatibility_view_keeps_every_value_of_the_old_files():
    # The old files (rules 2026.11.2) as the consumers read them, section by section, against the
    # compatibility view of the new ones: equal but for the version and the surcharge placeholders.
    old = {
        "slug": {"ratio": 5, "min_duration_min": 15, "baseline_days": 30, "min_baseline_days": 7, "gap_factor": 1.5},
        "notices": {"sewer_correction_max_days": 30, "accidental_discharge_statement_days": 15,
                    "periodic_report_max_months": 6, "self_monitoring_notice_hours": 24, "resample_days": 30,
                    "slug_report_days": 5, "permit_expiry_warning_days": 90},
        "snc": {"chronic_pct": 66, "trc_pct": 33, "trc_factor_default": 1.2, "late_report_days": 45,
                "period_months": 6, "trc_factor_by_parameter": {"BOD": 1.4, "TSS": 1.4, "FOG": 1.4},
                "trc_excluded_parameters": ["pH"]},
        "infiltration": {"gal_per_inch_diameter_per_mile_per_day": 200, "feet_per_mile": 5280},
        "grease_interceptors": {"order_compliance_days": 30},
    }
    woodbury = load_rules("woodbury")
    for section, values in old.items():
        got = woodbury.section(section)
        for key, value in values.items():
            assert got[key] == value and type(got[key]) is type(value), (section, key)
    sw = load_rules("bellport").section("swppp")
    assert (sw["max_disturbed_acres_without_swppp_approval"], sw["sediment_cleanout_pct"], sw["milestone_notice_hours"],
            sw["appeal_days"], sw["inspector"], sw["reports_delivered_weekly"]) == (5, 50, 48, 15,
                                                                                    "a qualified professional", False)


def test_compatibility_view_is_the_version_in_effect_today(tmp_path):
    text = (RULES_DIR / "woodbury.yaml").read_text()
    old = """  - ratio: 5                 # "more than five times" the average 24-hour flow/concentration"""
    assert old in text
    # A new ratio from the day after tomorrow: today's view keeps 5; the day-correct view changes with the day.
    start = dt.date.today() + dt.timedelta(days=2)
    text = _new_slug_version(text, start, 4)
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "woodbury.yaml").write_text(text)
    rules = load_rules("woodbury", folder)
    assert rules.section("slug")["ratio"] == 5
    assert rules.raw_at(start)["slug"]["ratio"] == 4
    assert rules.raw_at(start - dt.timedelta(days=1))["slug"]["ratio"] == 5


def _new_slug_version(text: str, start: dt.date, ratio: int) -> str:
    """The slug-multiplier recipe of CONTRIBUTING.md, applied to the text of woodbury.yaml."""
    head, rest = text.split("\nslug:\n", 1)
    block, tail = rest.split("\n\n", 1)
    assert block.rstrip().endswith("effective_from: 1986-11-20")
    closed = block + f"\n    effective_to: {start - dt.timedelta(days=1)}"
    new = (f"\n  - ratio: {ratio}\n    min_duration_min: 15\n    baseline_days: 30\n    min_baseline_days: 7\n"
           f"    gap_factor: 1.5\n    citation: \"Woodbury Local Law No. 9 of 2027 (test)\"\n"
           f"    effective_from: {start}")
    return f"{head}\nslug:\n{closed}{new}\n\n{tail}"


def test_same_file_read_once():
    assert load_rules("woodbury") is load_rules("woodbury")
    assert load_rules("woodbury").sha256 and load_rules("woodbury").source.name == "woodbury.yaml"


def test_dates_stay_text_until_the_models_read_them():
    data, lines = read_yaml("a:\n  effective_from: 2026-01-01\n  b: [1, 2]\n", "x.yaml")
    assert data == {"a": {"effective_from": "2026-01-01", "b": [1, 2]}}
    assert lines[("a", "effective_from")] == 2 and lines[("a", "b", 1)] == 3


def test_rules_files_are_text_files_in_the_rules_folder():
    assert sorted(p.name for p in Path(RULES_DIR).glob("*.yaml")) == ["bellport.yaml", "woodbury.yaml"]
    for name in ("woodbury", "bellport"):
        assert (RULES_DIR / f"{name}.yaml").read_text().startswith("# yaml-language-server: $schema=schema.json\n")
