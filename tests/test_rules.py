"""The rules loader: the shipped files load; a bad file fails with the entry named."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from outfall import vocab
from outfall.paths import RULES_DIR
from outfall.rules import RulesError, load_all, load_rules, parse_rules


def test_shipped_rules_load_and_cite_everything():
    rules = load_all()
    woodbury = rules["woodbury"]
    assert {(l.parameter, l.limit_type): l.value for l in woodbury.discharge_limits} == {
        ("BOD", "max"): 240, ("chlorine_demand", "max"): 25, ("COD", "max"): 600, ("TSS", "max"): 300,
        ("FOG", "max"): 100, ("temperature", "max"): 150, ("pH", "min"): 5.5, ("pH", "max"): 9.5}
    assert all(l.citation and l.effective_from for l in woodbury.discharge_limits)
    assert set(woodbury.section("sewer_units")["classes"]) == set(vocab.PROPERTY_CLASSES)
    assert woodbury.reading("exceedance_is_strict") is True
    assert rules["bellport"].section("penalties")["stormwater"]["per"] == "week"
    assert woodbury.section("penalties")["stormwater"]["per"] == "day"


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    shutil.copytree(RULES_DIR, tmp_path / "rules")
    path = tmp_path / "rules" / "woodbury.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return tmp_path / "rules"


@pytest.mark.parametrize("old,new,message", [
    ("    value: 240\n", "    value: high\n", "discharge_limits[0]: 'high' must be a number"),
    ("    unit: mg/L\n    citation: \"Woodbury Code ch. 253 Part 2, discharges requiring Town Board approval, (a)",
     "    unit: furlongs\n    citation: \"x", "discharge_limits[0]: unit 'furlongs' is not a concentration unit for BOD"),
    ("    limit_type: max\n    value: 240", "    limit_type: most\n    value: 240", "limit_type 'most' is not one of"),
    ("method: tiers", "method: guess", "sewer_units.classes.restaurant: method 'guess' is not one of"),
    ("  ratio: 5 ", "  ratios: 5 ", "slug: missing 'ratio'"),
    ("jurisdiction: woodbury", "jurisdiction: atlantis", "jurisdiction 'atlantis' is not one of"),
])
def test_bad_rules_file_names_the_entry(tmp_path, old, new, message):
    folder = _broken(tmp_path, old, new)
    with pytest.raises(RulesError) as err:
        load_rules("woodbury", folder)
    assert message in str(err.value)
    assert "woodbury.yaml" in str(err.value)


def test_missing_citation_is_refused():
    text = (RULES_DIR / "woodbury.yaml").read_text()
    start = text.index("    citation: \"Woodbury Code ch. 253 Part 2, discharges requiring Town Board approval, (a)")
    end = text.index("\n", start) + 1
    with pytest.raises(RulesError, match=r"discharge_limits\[0\]: missing 'citation'"):
        parse_rules(text[:start] + text[end:], Path("woodbury.yaml"))


def test_not_yaml():
    with pytest.raises(RulesError, match="not valid YAML"):
        parse_rules("a: [unclosed", Path("woodbury.yaml"))


def test_limit_in_effect_dates():
    limit = load_rules("woodbury").discharge_limits[0]
    import datetime as dt

    assert limit.in_effect(dt.date(2026, 1, 1))
    assert not limit.in_effect(dt.date(1980, 1, 1))
