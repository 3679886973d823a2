"""What is generated from the rules is checked in and kept fresh: rules/schema.json (from the models,
for editors) and docs/rules.md (from the rules files, for the clerk)."""

from __future__ import annotations

import json

import jsonschema
import pytest

from outfall.paths import REPO_ROOT, RULES_DIR
from outfall.rules import load_all
from outfall.rules.generate import docs_text, schema_text
from outfall.rules.loader import read_yaml

STALE = "is stale: run `python -m outfall.rules {}` and commit the result"


def test_schema_file_is_fresh():
    assert (RULES_DIR / "schema.json").read_text(encoding="utf-8") == schema_text(), STALE.format("schema")


def test_docs_file_is_fresh():
    assert (REPO_ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == docs_text(load_all()), (
        STALE.format("docs")
    )


def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads((RULES_DIR / "schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


@pytest.mark.parametrize("jurisdiction", ["woodbury", "bellport"])
def test_shipped_files_meet_the_schema_an_editor_checks(jurisdiction):
    text = (RULES_DIR / f"{jurisdiction}.yaml").read_text(encoding="utf-8")
    assert text.splitlines()[0] == "# yaml-language-server: $schema=schema.json"
    data, _ = read_yaml(text, jurisdiction)
    assert [e.message for e in validator().iter_errors(data)] == []


@pytest.mark.parametrize(
    "old,new,where",
    [
        ("max_usd: 350}", 'max_usd: "five hundred"}', ["penalties", "stormwater", 0, "tiers", 0, "max_usd"]),
        ("max_usd: 350}", "max_usd: -350}", ["penalties", "stormwater", 0, "tiers", 0, "max_usd"]),
        ("    - days: 15\n", "    - dayz: 15\n", ["swppp", "appeal", 0]),
        ("      per: week\n", "      per: fortnight\n", ["penalties", "stormwater", 0, "per"]),
    ],
)
def test_the_schema_flags_what_the_loader_refuses(old, new, where):
    text = (RULES_DIR / "bellport.yaml").read_text(encoding="utf-8")
    assert old in text
    data, _ = read_yaml(text.replace(old, new, 1), "bellport")
    errors = list(validator().iter_errors(data))
    assert errors and any(
        list(e.absolute_path)[: len(where)] == where or list(e.absolute_path) == where[:-1] for e in errors
    ), [(list(e.absolute_path), e.message) for e in errors]


def test_docs_state_every_value_citation_and_date_for_a_clerk():
    text = (REPO_ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    rules = load_all()
    woodbury = rules["woodbury"]
    for lim in woodbury.discharge_limits:
        assert lim.citation in text
    assert "| BOD | at most | 240 mg/L | from a day not stated in the code with no end date |" in text
    assert "**None adopted by the Town Board.** The surcharges table reports the pounds" in text
    assert "offense: 1; min_usd: $0.00; max_usd: $350.00" in text  # Bellport
    assert "(`penalties.stormwater`)" in text and "per week" not in text.split("## Village of Bellport")[0]
    for name in ("ratio", "threshold_in", "sewer_correction", "remedial_measures", "adopted_by"):
        assert name in text
    assert "Traceback" not in text and "class '" not in text and "Versions(" not in text


def _recipe_blocks() -> dict[str, str]:
    text = (REPO_ROOT / "docs" / "CONTRIBUTING.md").read_text(encoding="utf-8")
    recipes = text.split("## Recipes", 1)[1]
    blocks = {}
    for part in recipes.split("```yaml\n")[1:]:
        block = part.split("```", 1)[0]
        blocks[block.split(":", 1)[0]] = block
    return blocks


def _with_section(jurisdiction: str, section: str, block: str):
    from pathlib import Path

    from outfall.rules import parse_rules

    text = (RULES_DIR / f"{jurisdiction}.yaml").read_text(encoding="utf-8")
    start = text.index(f"\n{section}:\n") + 1
    end = text.index("\n\n", start)
    return parse_rules(text[:start] + block.rstrip("\n") + text[end:], Path(f"{jurisdiction}.yaml"))


def test_the_recipes_examples_are_real_changes_of_the_shipped_rules():
    import datetime as dt

    blocks = _recipe_blocks()
    assert set(blocks) == {"penalties", "slug", "table_7_1"}
    shipped = load_all()
    bellport = _with_section("bellport", "penalties", blocks["penalties"])
    old, new = bellport.penalties.stormwater
    assert old.model_dump(exclude={"effective_to"}) == shipped["bellport"].penalties.stormwater[0].model_dump(
        exclude={"effective_to"}
    )
    assert old.effective_to == new.effective_from - dt.timedelta(days=1)
    woodbury = _with_section("woodbury", "slug", blocks["slug"])
    old, new = woodbury.slug
    assert old.model_dump(exclude={"effective_to"}) == shipped["woodbury"].slug[0].model_dump(
        exclude={"effective_to"}
    )
    assert (old.ratio, new.ratio) == (5, 4) and old.effective_to == new.effective_from - dt.timedelta(days=1)
    woodbury = _with_section("woodbury", "table_7_1", blocks["table_7_1"])
    assert (
        woodbury.table_7_1.model_dump(exclude={"limits"})
        == shipped["woodbury"].table_7_1.model_dump(exclude={"limits"})
        and len(shipped["woodbury"].table_7_1.limits) == 0
    )
    (copper,) = woodbury.table_7_1.limits
    assert (copper.parameter, copper.value, copper.adopted_by) == ("copper", 0.2, "Resolution 2026-7")


def test_the_sections_of_contract_section5_are_in_the_rules_files(tmp_path):
    # Contract section 5's sections (business days, illicit discharges, practices, fees) are typed by rules
    # models like any other (outfall/rules/calendar.py, illicit.py, practices.py, fees.py); they load, meet
    # the schema and make docs, and a bad value in them is one line like any other.
    import datetime as dt
    import shutil

    from outfall.law.calendar import calendar_from_rules
    from outfall.rules import RulesError, load_rules

    rules = load_all()
    woodbury = rules["woodbury"]
    assert woodbury.illicit_discharges.at(dt.date(2026, 6, 1)).notify_business_days == 1
    assert calendar_from_rules(woodbury.business_days).holidays(2026)
    assert rules["bellport"].post_construction.at(dt.date(2026, 6, 1)).inspection_after_years == 1
    assert woodbury.inspection_fees.entries[0].water_usd > 0
    text = docs_text(rules)
    assert "(`illicit_discharges`)" in text and "(`business_days`)" in text and "Juneteenth" in text
    folder = tmp_path / "rules"
    shutil.copytree(RULES_DIR, folder)
    path = folder / "woodbury.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("protest_days: 10 ", "protest_days: -10 ", 1))
    with pytest.raises(RulesError) as err:
        load_rules("woodbury", folder)
    assert "illicit_discharges[0].protest_days: -10 is less than 0" in str(err.value)
    assert "Input should" not in str(err.value)


# The law folder's README: cite by chapter and section, or by the paragraph's own heading or lettering where
# the excerpt prints no section number. The ch. 185 excerpt prints only § 185-11 (and refers to § 185-7); the
# Bellport article numbers only 21-600 and 21-606. A number inferred by counting sections is not a citation.
# § 24 and § 25-a are the General Construction Law's, cited by the contract itself.
PRINTED_SECTIONS = {
    "§ 185-7",
    "§ 185-11",
    "§ 253-55",
    "§ 267-7",
    "§ 267-9",
    "21-606",
    "21-600",
    "§ 24",
    "§ 25-a",
    "§ 8-100",
}


def _texts(value, where=""):
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _texts(v, f"{where}.{k}" if where else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _texts(v, f"{where}[{i}]")


@pytest.mark.parametrize("jurisdiction", ["woodbury", "bellport"])
def test_every_text_of_the_rules_cites_the_law_in_plain_words(jurisdiction):
    import re

    data, _ = read_yaml((RULES_DIR / f"{jurisdiction}.yaml").read_text(encoding="utf-8"), jurisdiction)
    jargon = re.compile(
        r"\bcontract\b|\breading of\b|\bOutfall\b|\bIssue \d|--as-of|`|\b[a-z]+_[a-z_]+\b"
        r"|<X\b",
        re.I,
    )
    # the texts a reader sees: citations, rule texts, labels, issuers and quoted law (not names of things)
    shown = (
        "citation",
        "rule",
        "label",
        "issuer",
        "law_name",
        "appeal_filed_with",
        "not_in_schedule",
        "not_in_effect",
        "no_inspection",
        "short_citation",
        "mailing",
        "inspector",
    )
    bad = []
    for where, text in _texts(data):
        last = re.split(r"[.\[]", where)[-1]
        parent = where.rsplit(".", 2)[-2] if where.count(".") >= 1 else ""
        if (
            not (
                last.startswith(shown)
                or last.startswith("citation")
                or parent in ("rules", "section_text")
                or where.split(".")[-2:-1] == ["section_text"]
            )
            or " " not in text
        ):
            continue  # not a text a reader sees (a one-word value names a rule the code implements)
        if jargon.search(text):
            bad.append(f"{where}: {text[:100]}")
        for section in re.findall(r"(?:§ ?|\b21-)\d+(?:-\d+)?(?:-[a-z]\b)?", text):
            if not any(section.replace(" ", "").startswith(p.replace(" ", "")) for p in PRINTED_SECTIONS):
                bad.append(f"{where}: cites {section}, which the excerpt does not print")
    assert not bad, "\n".join(bad)
