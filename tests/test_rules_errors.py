"""A bad rules file gives one line a person can act on: the file, the line, the entry's path and what
is wrong; and `outfall run` stops with it (exit 2) before any asset starts, within 3 seconds."""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from outfall.paths import REPO_ROOT, RULES_DIR
from outfall.rules import RulesError, load_rules, parse_rules

#: the version line of the shipped Bellport rules (a version written unquoted is a corruption)
BELLPORT_VERSION_LINE = next(
    line for line in (RULES_DIR / "bellport.yaml").read_text().splitlines() if line.startswith("version: ")
)

CLI_SECONDS = 3.0

BELLPORT_SECOND_PENALTY = """
    - citation: "Bellport Local Law 1 of 2027 (test)"
      per: week
      lookback_years: 5
      tiers:
        - {offense: 1, min_usd: 0, max_usd: 500}
      effective_from: 2027-01-01
"""

# (file, old text, new text, the entry's path, what the line says): ten ways a rules file goes wrong.
CORRUPTIONS = {
    "wrong type": (
        "bellport",
        "max_usd: 350}",
        'max_usd: "five hundred"}',
        "penalties.stormwater[0].tiers[0].max_usd",
        "'five hundred' is not an amount of money",
    ),
    "unknown key": (
        "woodbury",
        "  - ratio: 5 ",
        "  - ratios: 5 ",
        "slug[0]",
        "unknown key 'ratios' (the keys here are: citation, effective_from, effective_to, "
        "ratio, min_duration_min",
    ),
    "missing citation": (
        "woodbury",
        '    citation: "Woodbury Code ch. 253 Part 2, discharges requiring Town Board '
        'approval, (a): BOD in excess of 240 mg/l"\n',
        "",
        "discharge_limits[0]",
        "missing 'citation'",
    ),
    "overlapping dates": (
        "bellport",
        "      effective_from: null\n\nreadings:",
        "      effective_from: null\n" + BELLPORT_SECOND_PENALTY + "\nreadings:",
        "penalties.stormwater[1]",
        "two entries of the same rule may not both be in effect on "
        "2027-01-01; give entry [0] effective_to: 2026-12-31",
    ),
    "negative money": (
        "woodbury",
        "fine_max_usd: 250",
        "fine_max_usd: -250",
        "penalties.sewer_use[0].fine_max_usd",
        "-250 is negative; an amount of money is never negative",
    ),
    "bad date": (
        "woodbury",
        'of the daily means of the 30 days before"\n    effective_from: null',
        'of the daily means of the 30 days before"\n    effective_from: 1986-11-31',
        "slug[0].effective_from",
        "'1986-11-31' is not a date (YYYY-MM-DD",
    ),
    "effective_to before effective_from": (
        "woodbury",
        'of sewer per day"\n    effective_from: null',
        'of sewer per day"\n    effective_from: 1986-11-20\n    effective_to: 1986-01-01',
        "infiltration[0]",
        "effective_to 1986-01-01 is before effective_from 1986-11-20",
    ),
    "unknown unit": (
        "woodbury",
        '    unit: mg/L\n    citation: "Woodbury Code ch. 253 Part 2, discharges requiring '
        "Town Board approval, (a)",
        '    unit: furlongs\n    citation: "Woodbury Code ch. 253 Part 2, discharges requiring Town '
        "Board approval, (a)",
        "discharge_limits[0]",
        "unit 'furlongs' is not a concentration unit for BOD (one of mg/L, ug/L)",
    ),
    "unknown property class": (
        "woodbury",
        "    motel: {method: per_count",
        "    hotel: {method: per_count",
        "sewer_units[0].classes.hotel",
        "'hotel' is not one of 'single_family', 'two_family'",
    ),
    "not YAML": (
        "woodbury",
        '    two_family: {method: fixed, units: 2, label: "2-family residence"}',
        '    two_family: {method: fixed, units: 2, label: "2-family residence"',
        "",
        "not valid YAML",
    ),
}

MORE = {
    "unknown unit-rule method": (
        "woodbury",
        "method: tiers",
        "method: guess",
        "sewer_units[0].classes.restaurant",
        "method 'guess' is not one of 'acreage', 'fixed', 'per_count', 'tiers', 'acreage_only'",
    ),
    "text for a whole number": (
        "woodbury",
        "    baseline_days: 30 ",
        "    baseline_days: thirty ",
        "slug[0].baseline_days",
        "'thirty' is not a whole number",
    ),
    "money with fractions of a cent": (
        "woodbury",
        "civil_max_usd: 250",
        "civil_max_usd: 250.005",
        "penalties.sewer_use[0].civil_max_usd",
        "250.005 has more than 2 decimal places",
    ),
    "unknown jurisdiction": (
        "woodbury",
        "jurisdiction: woodbury",
        "jurisdiction: atlantis",
        "jurisdiction",
        "says 'atlantis', but the file is the rules of 'woodbury'",
    ),
    "version not quoted": (
        "bellport",
        BELLPORT_VERSION_LINE,
        "version: 2026.12",
        "version",
        "2026.12 is not text (put it in quotes)",
    ),
    "empty citation": (
        "bellport",
        "citation: \"Bellport Code ch. 21 stormwater article, penalties: each week's "
        'continued violation is an additional violation"',
        'citation: "  "',
        "penalties.stormwater[0].citation",
        "is empty; write the text",
    ),
    "key given twice": (
        "woodbury",
        "    feet_per_mile: 5280\n",
        "    feet_per_mile: 5280\n    feet_per_mile: 5281\n",
        "",
        "key 'feet_per_mile' is given twice",
    ),
    "surcharge rate without adoption": (
        "woodbury",
        "  rates: []\n",
        '  rates:\n    - {parameter: BOD, usd_per_lb: 0.35, citation: "x", effective_from: 2027-01-01}\n',
        "surcharge.rates[0]",
        "missing 'adopted_by'",
    ),
    "a reading nobody knows": (
        "bellport",
        "  swppp_disturbed_acres_disturbed_at_one_time:",
        "  swppp_disturbed_acres_disturbed_at_once:",
        "readings",
        "unknown key 'swppp_disturbed_acres_disturbed_at_once'",
    ),
    "a misspelt section": (
        "woodbury",
        "\ninfiltration:\n",
        "\ninfiltraton:\n",
        "",
        "unknown key 'infiltraton'",
    ),
    "more days than the law allows": (
        "woodbury",
        "    - max_days: 30\n",
        "    - max_days: 30\n      days: 31\n",
        "notices.sewer_correction[0]",
        "days 31 is more than max_days 30",
    ),
}


def corrupted(tmp_path: Path, jurisdiction: str, old: str, new: str) -> Path:
    folder = tmp_path / "rules"
    shutil.copytree(RULES_DIR, folder)
    path = folder / f"{jurisdiction}.yaml"
    text = path.read_text()
    assert text.count(old) >= 1, old
    path.write_text(text.replace(old, new, 1))
    return folder


def line_of(folder: Path, jurisdiction: str, new: str) -> int:
    """The line of the last line the corruption wrote."""
    text = (folder / f"{jurisdiction}.yaml").read_text()
    marker = [line for line in new.splitlines() if line.strip()][-1]
    assert text.count(marker) == 1, marker
    return text[: text.index(marker)].count("\n") + 1


def check_line(message: str, jurisdiction: str, path: str, says: str) -> None:
    assert "\n" not in message
    assert f"{jurisdiction}.yaml" in message
    assert f": {path}: " in message if path else True
    assert says in message, message
    for word in (
        "pydantic",
        "http",
        "Input should",
        "ValidationError",
        "Traceback",
        "StormwaterPenalty",
        "DischargeLimit",
        "Rules(",
    ):
        assert word not in message, message


@pytest.mark.parametrize("case", list(CORRUPTIONS) + list(MORE))
def test_a_corrupted_copy_names_file_line_entry_and_problem(tmp_path, case):
    jurisdiction, old, new, path, says = {**CORRUPTIONS, **MORE}[case]
    folder = corrupted(tmp_path, jurisdiction, old, new)
    with pytest.raises(RulesError) as err:
        load_rules(jurisdiction, folder)
    message = str(err.value)
    check_line(message, jurisdiction, path, says)
    if case not in ("missing citation", "a misspelt section", "not YAML", "key given twice"):
        line = line_of(folder, jurisdiction, new)
        assert re.search(r", line \d+: ", message), message
        if case in (
            "wrong type",
            "negative money",
            "unknown property class",
            "text for a whole number",
            "effective_to before effective_from",
            "more days than the law allows",
        ):
            assert f", line {line}: " in message, (line, message)


def test_several_problems_name_the_first_in_the_file_and_count_the_rest(tmp_path):
    folder = corrupted(tmp_path, "bellport", "max_usd: 350}", 'max_usd: "five hundred"}')
    path = folder / "bellport.yaml"
    path.write_text(path.read_text().replace("max_usd: 1000}", "max_usd: -1}"))
    with pytest.raises(RulesError) as err:
        load_rules("bellport", folder)
    assert "tiers[0].max_usd: 'five hundred'" in str(err.value)
    assert str(err.value).endswith("(and 1 more problem)")


def test_a_town_states_only_the_sections_its_law_has():
    text = (RULES_DIR / "woodbury.yaml").read_text()
    start = text.index("\ninfiltration:\n")
    end = text.index("\n\n", start + 1)
    rules = parse_rules(text[:start] + text[end:], Path("woodbury.yaml"))
    assert rules.infiltration is None and rules.slug is not None


def test_values_left_empty_are_not_stated_and_a_half_filled_entry_names_each_blank():
    text = (RULES_DIR / "woodbury.yaml").read_text()
    # a whole section left "": not stated
    start = text.index("\ninfiltration:\n")
    end = text.index("\n\n", start + 1)
    emptied = (
        text[:start]
        + (
            '\ninfiltration:\n  - gal_per_inch_diameter_per_mile_per_day: ""\n    feet_per_mile: ""\n'
            '    citation: ""\n    effective_from: ""'
        )
        + text[end:]
    )
    rules = parse_rules(emptied, Path("woodbury.yaml"))
    assert rules.infiltration is None and rules.not_stated == ("infiltration",)
    # a version that states some values and leaves two required ones "": both named, in file order
    half = emptied.replace('feet_per_mile: ""', "feet_per_mile: 5280").replace(
        'citation: ""\n    effective_from: ""', 'citation: "x"\n    effective_from: ""'
    )
    with pytest.raises(RulesError) as err:
        parse_rules(half, Path("woodbury.yaml"))
    problems = err.value.problems
    assert len(problems) == 2
    assert "infiltration[0].gal_per_inch_diameter_per_mile_per_day: is empty" in problems[0]
    assert "infiltration[0].effective_from: is empty" in problems[1]
    assert str(err.value).endswith("(and 1 more problem)")


def test_the_file_must_be_the_jurisdictions_own(tmp_path):
    folder = tmp_path / "rules"
    folder.mkdir()
    shutil.copy(RULES_DIR / "woodbury.yaml", folder / "bellport.yaml")
    with pytest.raises(RulesError, match=r"bellport.yaml, line \d+: jurisdiction: says 'woodbury'"):
        load_rules("bellport", folder)


def test_empty_and_non_mapping_files():
    with pytest.raises(RulesError, match="x.yaml: the file is empty"):
        parse_rules("# nothing\n", Path("x.yaml"))
    with pytest.raises(
        RulesError, match="x.yaml: expected key: value lines at the top of the file, not a list"
    ):
        parse_rules("- a\n- b\n", Path("x.yaml"))
    with pytest.raises(RulesError, match=r"x.yaml, line \d+: not valid YAML: did not find expected"):
        parse_rules("a: [unclosed", Path("x.yaml"))


# ------------------------------------------------------------ outfall run


def run_outfall(
    folder: Path, data: Path, warehouse: Path
) -> tuple[subprocess.CompletedProcess, float, float]:
    """(result, wall seconds, the child's CPU seconds)."""
    env = dict(os.environ, OUTFALL_RULES_DIR=str(folder))
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "outfall", "run", "--data", str(data), "--warehouse", str(warehouse)],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO_ROOT,
        timeout=60,
    )
    wall = time.perf_counter() - started
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    return result, wall, cpu


@pytest.mark.parametrize("case", list(CORRUPTIONS))
def test_outfall_run_stops_on_a_bad_rules_file_before_any_asset(tmp_path, case):
    jurisdiction, old, new, path, says = CORRUPTIONS[case]
    folder = corrupted(tmp_path, jurisdiction, old, new)
    (tmp_path / "data").mkdir()
    warehouse = tmp_path / "w.duckdb"
    # The best of up to three runs: on a machine shared with other work, a run can wait for a processor;
    # the program's own cost (its CPU time) is bounded on every run.
    walls = []
    for _ in range(3):
        result, wall, cpu = run_outfall(folder, tmp_path / "data", warehouse)
        assert cpu < CLI_SECONDS, f"{cpu:.2f} s of CPU"
        walls.append(wall)
        if wall < CLI_SECONDS:
            break
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("outfall: ")
    check_line(lines[0], jurisdiction, path, says)
    assert result.stdout == ""
    assert not warehouse.exists()  # nothing started: no warehouse, no lock taken
    assert min(walls) < CLI_SECONDS, f"{', '.join(f'{w:.2f}' for w in walls)} s"
