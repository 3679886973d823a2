"""The rules loader: the shipped files load into typed models, every entry cited and dated, each rule
asked for the version in effect on a day; the old untyped view is gone."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from outfall.paths import RULES_DIR
from outfall.rules import (
    Dated,
    DischargeLimit,
    Entries,
    Rules,
    RulesError,
    TownBoardLimit,
    Versions,
    jurisdictions,
    load_all,
    load_rules,
)
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
    assert set(rules) == set(jurisdictions()) == {"woodbury", "bellport"}
    for jurisdiction, r in rules.items():
        # woodbury 2026.12.3: the readings of the notice date and the penalty days follow contract 5.1;
        # 2026.12.4: required testing (contract 6.3); deadlines that end on a weekend or holiday (GCL § 25-a,
        # contract 6.5); 2026.12.6: the worklist's week (contract 6.4), the sewer districts' names (Part 3)
        # 2026.12.7 / 2026.12.4: the names of the laws letters and pages cite (law_names)
        # 2026.12.8 / 2026.12.5: first days the code does not state are null, remedial measures per kind of
        # finding replace the remedial days, federal duties name their law and are not adopted (contract 7)
        # 2026.12.9 / 2026.12.6: the worklist's week is a setting, not law: undated (contract 7.5)
        # 2026.12.8: the codes of the districts, property classes and components (vocabulary)
        # 2026.12.9: the charge model, limits' sources, who adopts rates, words the code no longer holds
        # 2026.12.10: both of the above merged
        # 2026.12.11: the body that receives an illicit discharge appeal (the letter no longer names it)
        # 2026.12.12: ch. 185's appeal postpones the abatement, not the penalty; a late appeal is no appeal;
        # the permit renewal reminder is a Town practice, not law (contract 8.5)
        # 2026.12.13 / 2026.12.7: the municipality's own names (contract 8.4)
        # 2026.12.14: the surcharge threshold reading's word says what it means (code_limit, not
        # part2_limit: contract 8.8, the allowed words of every key)
        # 2026.12.15 / 2026.12.8: the town's own words (contract 8.7): its kind, who finds a violation, how a
        # stormwater notice is served, the penalty section's own words
        version = {"woodbury": "2026.12.15", "bellport": "2026.12.8"}[jurisdiction]
        assert isinstance(r, Rules) and r.jurisdiction == jurisdiction and r.version == version
        dated = list(_walk_dated(r))
        assert len(dated) > 20
        for path, entry in dated:
            assert entry.citation.strip(), path
            # a date, or null where the code states none (contract 7.2: "not stated in the code")
            assert entry.effective_from is None or isinstance(entry.effective_from, dt.date), path
    woodbury = rules["woodbury"]
    assert {(lim.parameter, lim.limit_type): lim.value for lim in woodbury.discharge_limits} == {
        ("BOD", "max"): 240,
        ("chlorine_demand", "max"): 25,
        ("COD", "max"): 600,
        ("TSS", "max"): 300,
        ("FOG", "max"): 100,
        ("temperature", "max"): 150,
        ("pH", "min"): 5.5,
        ("pH", "max"): 9.5,
    }
    assert set(woodbury.sewer_units.at(D(2026, 1, 1)).classes) == set(woodbury.vocabulary.property_classes)
    assert woodbury.readings.exceedance_is_strict.at(D(2026, 1, 1)).value is True
    assert rules["bellport"].penalties.stormwater.at(D(2026, 1, 1)).per == "week"
    assert woodbury.penalties.stormwater.at(D(2026, 1, 1)).per == "day"
    assert woodbury.timezone == "America/New_York"
    testing = woodbury.required_testing.at(D(2026, 1, 1))
    assert "frequency of testing" in testing.citation and "253 Part 2" in testing.citation
    assert testing.start_when_blank == "permit_effective_else_first_sample"
    assert rules["bellport"].required_testing is None


def test_money_is_decimal_and_dates_are_dates():
    bellport = load_rules("bellport")
    tier = bellport.penalties.stormwater.at(D(2026, 6, 1)).tier(1)
    assert tier.max_usd == Decimal("350") and isinstance(tier.max_usd, Decimal)
    assert (
        bellport.penalties.stormwater.at(D(2026, 6, 1)).tier(7).offense == 3
    )  # the last tier covers later ones
    sewer_use = load_rules("woodbury").penalties.sewer_use.at(D(2026, 6, 1))
    assert (sewer_use.fine_max_usd, sewer_use.civil_max_usd) == (Decimal("250"), Decimal("250"))


def test_not_adopted_stays_empty():
    # The law leaves these to the Town Board; nothing is adopted, so nothing is invented.
    woodbury = load_rules("woodbury")
    assert len(woodbury.table_7_1.limits) == 0
    assert len(woodbury.surcharge.rates) == 0
    assert woodbury.surcharge.rate("BOD", D(2026, 6, 1)) is None
    text = (RULES_DIR / "woodbury.yaml").read_text()
    assert "0.35" not in text.split("rates: []")[1] and "rate_usd_per_lb" not in text


def test_discharge_limits_in_effect_and_canonical_units():
    limit = load_rules("woodbury").discharge_limits[0]
    assert isinstance(limit, DischargeLimit)
    assert limit.in_effect(D(2026, 1, 1))
    # Part 2 states no day of adoption (contract 7.2: null, "not stated in the code"): in effect on any day
    assert limit.effective_from is None and limit.in_effect(D(1980, 1, 1))
    assert len(load_rules("woodbury").discharge_limits.at(D(1980, 1, 1))) == 8
    # A limit written in ug/L or degC is held in the canonical unit; the file's words are kept for the docs.
    text = """
      - {parameter: copper, limit_type: max, value: 500, unit: ug/L, adopted_by: "Resolution 1", citation: c,
         effective_from: 2027-01-01}
      - {parameter: temperature, limit_type: max, value: 65, unit: degC, adopted_by: "Resolution 1",
         citation: c, effective_from: 2027-01-01}"""
    data, _ = read_yaml(text, "test")
    copper, temperature = TypeAdapter(list[TownBoardLimit]).validate_python(data)
    assert (copper.value, copper.unit, copper.as_written) == (0.5, "mg/L", (500, "ug/L"))
    assert temperature.value == pytest.approx(149.0) and temperature.unit == "degF"


def test_versions_at_a_day_none_covers_names_the_section_and_day():
    woodbury = load_rules("woodbury")
    with pytest.raises(RulesError) as err:
        woodbury.sewer_units.at(D(1986, 11, 19))  # ch. 253 Part 3 was adopted 1986-11-20
    message = str(err.value)
    assert "woodbury.yaml: sewer_units: no entry in effect on 1986-11-19" in message
    assert "from 1986-11-20" in message and "\n" not in message
    with pytest.raises(RulesError, match=r"swppp\.storm_inspection: no entry in effect on 2007-05-02"):
        woodbury.swppp.storm_inspection.at(D(2007, 5, 2))  # ch. 267 was adopted 2007-05-03
    assert woodbury.swppp.storm_inspection.get(D(2007, 5, 2)) is None
    with pytest.raises(RulesError, match="no reading named 'no_such_reading' in readings"):
        woodbury.reading_at("readings", "no_such_reading", D(2026, 1, 1))
    assert woodbury.reading_at("readings_enforcement", "resample_by_any_lab", D(2026, 1, 1)) is True


# ------------------------------------------------- the untyped view is gone


def test_the_untyped_access_is_gone():
    # Every consumer asks a typed section for the version of its day; nothing can go back to the old
    # dictionaries answered with the version of today (rules 2026.11.2's shape).
    woodbury = load_rules("woodbury")
    for name in ("raw", "raw_at", "section", "has", "reading"):
        assert not hasattr(woodbury, name), name
    import outfall.rules as package

    assert not hasattr(package, "_parse_limits")
    with pytest.raises(ModuleNotFoundError):
        __import__("outfall.rules.legacy")


def test_the_old_values_are_the_typed_values_of_2026():
    # The old files (rules 2026.11.2) section by section against the typed versions in effect in 2026.
    day = D(2026, 6, 30)
    woodbury = load_rules("woodbury")
    slug = woodbury.slug.at(day)
    assert (
        slug.ratio,
        slug.min_duration_min,
        slug.baseline_days,
        slug.min_baseline_days,
        slug.gap_factor,
    ) == (5, 15, 30, 7, 1.5)
    n = woodbury.notices
    assert (
        n.sewer_correction.at(day).max_days,
        n.accidental_statement.at(day).days,
        n.periodic_report.at(day).max_months,
        n.self_monitoring.at(day).notice_hours,
        n.self_monitoring.at(day).resample_days,
        n.slug_report.at(day).days,
        n.permit_expiry_warning.at(day).days,
    ) == (30, 15, 6, 24, 30, 5, 90)
    snc = woodbury.snc.at(day)
    assert (
        snc.chronic_pct,
        snc.trc_pct,
        snc.trc_factor_default,
        snc.late_report_days,
        snc.period_months,
    ) == (66, 33, 1.2, 45, 6)
    assert snc.trc_factor_by_parameter == {
        "BOD": 1.4,
        "TSS": 1.4,
        "FOG": 1.4,
    } and snc.trc_excluded_parameters == ["pH"]
    inf = woodbury.infiltration.at(day)
    assert (inf.gal_per_inch_diameter_per_mile_per_day, inf.feet_per_mile) == (200, 5280)
    assert woodbury.grease_interceptors.at(day).order_compliance_days == 30
    sw = load_rules("bellport").swppp
    assert (
        sw.disturbance_limit.at(day).max_acres_without_approval,
        sw.sediment_cleanout.at(day).capacity_lost_pct,
        sw.milestone_notice.at(day).hours,
        sw.appeal.at(day).days,
        sw.weekly_inspection.at(day).inspector,
        sw.weekly_inspection.at(day).reports_delivered_weekly,
    ) == (5, 50, 48, 15, "a qualified professional", False)
    assert (
        load_rules("bellport").swppp.conditions is None
        and load_rules("bellport").swppp.report_delivery is None
    )


def test_a_version_from_a_later_day_applies_from_that_day_only(tmp_path):
    text = (RULES_DIR / "woodbury.yaml").read_text()
    start = dt.date.today() + dt.timedelta(days=2)
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "woodbury.yaml").write_text(_new_slug_version(text, start, 4))
    rules = load_rules("woodbury", folder)
    assert rules.slug.at(start).ratio == 4
    assert rules.slug.at(start - dt.timedelta(days=1)).ratio == 5
    assert rules.slug.at(dt.date.today()).ratio == 5


def _new_slug_version(text: str, start: dt.date, ratio: int) -> str:
    """The slug-multiplier recipe of CONTRIBUTING.md, applied to the text of woodbury.yaml."""
    head, rest = text.split("\nslug:\n", 1)
    block, tail = rest.split("\n\n", 1)
    assert block.rstrip().endswith("effective_from: null")
    closed = block + f"\n    effective_to: {start - dt.timedelta(days=1)}"
    new = (
        f"\n  - ratio: {ratio}\n    min_duration_min: 15\n    baseline_days: 30\n    min_baseline_days: 7\n"
        f'    gap_factor: 1.5\n    citation: "Woodbury Local Law No. 9 of 2027 (test)"\n'
        f"    effective_from: {start}"
    )
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
        assert (
            (RULES_DIR / f"{name}.yaml")
            .read_text()
            .startswith("# yaml-language-server: $schema=schema.json\n")
        )


def test_a_practice_is_not_law(tmp_path):
    # contract 8.5: a duty the rules mark as the town's practice names the practice as its law, is never
    # noticed, and cannot also name a law or an adopting act
    from outfall.rules.models import DaysRule

    rules = load_rules("woodbury")
    warning = rules.notices.permit_expiry_warning.at(dt.date(2026, 11, 30))
    assert warning.practice == "Town practice: permit renewal reminder"
    assert rules.duty_law(warning) == ("Town practice: permit renewal reminder", False)
    assert "ch. 253" not in rules.duty_law(warning)[0]
    report = rules.notices.periodic_report.at(dt.date(2026, 11, 30))
    assert rules.duty_law(report) == ("Woodbury Code ch. 253 Part 2", True)
    base = {"days": 90, "citation": "a practice", "effective_from": None}
    with pytest.raises(ValueError, match="a practice is not law"):
        DaysRule(**base, practice="Town practice: x", law="sewer_use")
    with pytest.raises(ValueError, match="a practice is not law"):
        DaysRule(**base, practice="Town practice: x", adopted_by="Resolution 1")
