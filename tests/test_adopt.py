"""The adoption path: a town engineer starts a rules file with `outfall new-town`, fills in only what the
ordinance states, checks it (every problem at once, as `outfall run` reads it) and runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, query_warehouse, small_town


def outfall(*args: str, rules: Path | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("OUTFALL_RULES_DIR", "OUTFALL_TOWN")}
    if rules is not None:
        env["OUTFALL_RULES_DIR"] = str(rules)
    return subprocess.run(
        [sys.executable, "-m", *args], capture_output=True, text=True, cwd=REPO, env=env, timeout=600
    )


def fill(path: Path, values: dict[tuple, object]) -> None:
    """Set the values at the given paths of a rules file (round-trip: its comments stay)."""
    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.width = 4096
    data = yaml.load(path.read_text(encoding="utf-8"))
    for where, value in values.items():
        node = data
        for part in where[:-1]:
            node = node[part]
        node[where[-1]] = value
    with open(path, "w", encoding="utf-8") as handle:
        yaml.dump(data, handle)


def check_and_run(rules: Path, tmp_path: Path) -> tuple[subprocess.CompletedProcess, ...]:
    """``python -m outfall.rules check`` and ``outfall run --rules`` on the same folder."""
    checked = outfall("outfall.rules", "check", "--rules-dir", str(rules))
    warehouse = str(tmp_path / "w.db")
    ran = outfall("outfall", "run", "--rules", str(rules), "--data", str(tmp_path), "--warehouse", warehouse)
    return checked, ran


BOD_LIMIT = {
    ("name",): "City of Springfield",
    ("kind",): "City",
    ("timezone",): "America/Chicago",
    ("discharge_limits", 0, "parameter"): "BOD",
    ("discharge_limits", 0, "limit_type"): "max",
    ("discharge_limits", 0, "value"): 200,
    ("discharge_limits", 0, "unit"): "mg/L",
    ("discharge_limits", 0, "citation"): "Springfield Code 41.05: BOD in excess of 200 mg/l",
    ("discharge_limits", 0, "effective_from"): None,
    ("law_names", "sewer_use", 0, "name"): "Sewer Use, Springfield Code chapter 41",
    ("law_names", "sewer_use", 0, "short"): "Springfield Code ch. 41",
    ("law_names", "sewer_use", 0, "citation"): "Springfield Code ch. 41",
    ("law_names", "sewer_use", 0, "effective_from"): None,
}


def test_check_lists_every_problem_at_once_in_the_order_of_the_file(tmp_path):
    rules = tmp_path / "rules"
    done = outfall(
        "outfall", "new-town", "springfield", "--out", str(rules / "springfield.yaml"), "--charges", "none"
    )
    assert done.returncode == 0, done.stderr
    # a half-filled limit: its value a word, its unit and citation left empty; and no town name
    fill(
        rules / "springfield.yaml",
        {
            ("timezone",): "America/Chicago",
            ("discharge_limits", 0, "parameter"): "BOD",
            ("discharge_limits", 0, "limit_type"): "max",
            ("discharge_limits", 0, "value"): "two hundred",
            ("discharge_limits", 0, "effective_from"): "2026-01-01",
        },
    )
    checked, ran = check_and_run(rules, tmp_path)
    assert checked.returncode == 2 and ran.returncode == 2
    lines = [line for line in checked.stderr.splitlines() if "springfield.yaml, line" in line]
    assert [line.split(": ", 2)[2].split(":")[0] for line in lines] == [
        "name",
        "discharge_limits[0].citation",
        "discharge_limits[0].value",
        "discharge_limits[0].unit",
    ]
    numbers = [int(line.split(", line ")[1].split(":")[0]) for line in lines]
    assert numbers == sorted(numbers)  # in the order of the file
    assert "'two hundred' is not a number" in lines[2]
    assert checked.stderr.strip().endswith("4 problems; `outfall run` would refuse this folder")
    # `outfall run` refuses the same folder on the same first problem, in one line, pointing to the check
    assert ran.stderr.count("\n") == 1 and lines[0].removeprefix("outfall: ") in ran.stderr
    assert "(and 3 more problems: outfall rules check --rules" in ran.stderr  # contract 8.8's command
    assert not (tmp_path / "w.db").exists()


@pytest.mark.slow  # `outfall run` end to end
def test_a_town_written_with_new_town_and_only_its_values_filled_in_runs(tmp_path):
    rules = tmp_path / "rules"
    done = outfall(
        "outfall", "new-town", "springfield", "--out", str(rules / "springfield.yaml"), "--charges", "none"
    )
    assert done.returncode == 0, done.stderr
    fill(rules / "springfield.yaml", BOD_LIMIT)
    checked = outfall("outfall.rules", "check", "--rules-dir", str(rules))
    assert checked.returncode == 0, checked.stderr
    # the short file of contract 8.8's new-town: what it leaves empty is listed, and what a run will not judge
    assert (
        "not stated (left empty, reported as such by what needs it): limits_set_elsewhere, " in checked.stdout
    )
    assert "a run will say: slug discharges: not judged (slug not stated)" in checked.stdout
    data = small_town(tmp_path / "data")
    db = tmp_path / "springfield.duckdb"
    ran = outfall(
        "outfall",
        "run",
        "--rules",
        str(rules),
        "--data",
        str(data),
        "--warehouse",
        str(db),
        "--as-of",
        "2026-06-30",
        "--quiet",
    )
    assert ran.returncode == 0, ran.stderr
    # the town's own limit, at its boundary: 200 mg/L, strictly exceeded
    found = query_warehouse(
        db, "SELECT value, limit_value, rule FROM discharge_violations WHERE parameter = 'BOD'"
    )
    assert found and all(v > 200 and lim == 200.0 for v, lim, _ in found)
    assert {r for _, _, r in found} == {"Springfield Code 41.05: BOD in excess of 200 mg/l"}
    # what the file does not state is not judged, and says why
    reasons = {s: r for s, r in query_warehouse(db, "SELECT DISTINCT section, reason FROM not_judged")}
    assert "the rules state no slug definition" in reasons.get("slug", "") or "slug" in reasons
    assert query_warehouse(db, "SELECT count(*) FROM sewer_bills") == [(0,)]


def test_a_reason_names_each_period_of_the_rules_once():
    import datetime as dt

    from outfall.rules.models import DischargeLimit
    from outfall.rules.tables import not_in_effect

    limits = [
        DischargeLimit.model_validate(
            {
                "parameter": f"metal {i}",
                "limit_type": "max",
                "value": 1,
                "unit": "mg/L",
                "citation": "x",
                "effective_from": "2012-01-01",
            }
        )
        for i in range(20)
    ]
    reason = not_in_effect("maximum limit of TSS", dt.date(2011, 6, 1), limits)
    assert reason.count("2012-01-01") == 1 and reason.endswith("(they give one from 2012-01-01)")
    assert not_in_effect("slug definition", dt.date(2026, 1, 1), []) == (
        "not judged: the rules state no slug definition (the law they were written from states none)"
    )


def test_check_refuses_a_folder_that_leaves_the_town_open_as_run_does(tmp_path):
    import shutil

    rules = tmp_path / "rules"
    rules.mkdir()
    for town in ("st_charles", "chagrin_falls"):
        shutil.copy(REPO / "examples" / "towns" / town / "rules" / f"{town}.yaml", rules)
    checked, ran = check_and_run(rules, tmp_path)
    assert checked.returncode == 2 and ran.returncode == 2
    assert "2 rules files have sewer rules" in checked.stderr and "OUTFALL_TOWN" in checked.stderr
    assert "2 rules files have sewer rules" in ran.stderr
    named = outfall("outfall.rules", "check", "--rules-dir", str(rules), "--town", "st_charles")
    assert named.returncode == 0 and "the town running Outfall: st_charles" in named.stdout


# ------------------------------------------------------------ docs/adopt.md, walked from a fact sheet

#: What a town engineer reads off a fact sheet of a real ordinance (the Seymour, Indiana example's
#: sections), written into the file `outfall new-town` started, as docs/adopt.md says: every other value
#: stays "" (not stated).
FACT_SHEET = {
    ("name",): "City of Seymour",
    ("timezone",): "America/Indiana/Indianapolis",
    ("surcharge", "method", 0, "citation"): "Seymour Code, excess-strength surcharge, (B)",
    ("surcharge", "method", 0, "effective_from"): None,
    ("surcharge", "method", 0, "lbs_per_unit_per_mgl"): 0.0062321,
    ("surcharge", "method", 0, "volume_unit"): "hundred_cubic_feet",
    ("surcharge", "method", 0, "parameters"): ["BOD"],
    ("surcharge", "thresholds", 0, "citation"): "Seymour Code, excess-strength surcharge, (A)(1)",
    ("surcharge", "thresholds", 0, "effective_from"): None,
    ("surcharge", "thresholds", 0, "parameter"): "BOD",
    ("surcharge", "thresholds", 0, "value"): 200,
    ("surcharge", "thresholds", 0, "unit"): "mg/L",
    ("surcharge", "rates", 0, "citation"): "Seymour Code, excess-strength surcharge, (C)",
    ("surcharge", "rates", 0, "effective_from"): None,
    ("surcharge", "rates", 0, "parameter"): "BOD",
    ("surcharge", "rates", 0, "usd_per_lb"): {"set_by": "Appendix B, Table F"},
    ("readings_enforcement", "surcharge_flow", 0, "citation"): "as this town reads (B)",
    ("readings_enforcement", "surcharge_flow", 0, "effective_from"): None,
    ("readings_enforcement", "surcharge_flow", 0, "value"): "meter_time_weighted_else_permit",
    ("readings_enforcement", "surcharge_concentration", 0, "citation"): "as this town reads (B)",
    ("readings_enforcement", "surcharge_concentration", 0, "effective_from"): None,
    ("readings_enforcement", "surcharge_concentration", 0, "value"): "monthly_mean_composites_else_grabs",
    ("penalties", "sewer_use", 0, "citation"): "Seymour Code § 10.99(A)",
    ("penalties", "sewer_use", 0, "effective_from"): None,
    ("penalties", "sewer_use", 0, "fine_max_usd"): 2500,
    ("penalties", "sewer_use", 0, "per"): "day",
    ("law_names", "sewer_use", 0, "name"): "Sewers, Code of Ordinances of the City of Seymour",
    ("law_names", "sewer_use", 0, "short"): "Seymour Code",
    ("law_names", "sewer_use", 0, "citation"): "Code of Ordinances of the City of Seymour",
    ("law_names", "sewer_use", 0, "effective_from"): None,
}


def adopt_commands() -> list[str]:
    """The shell commands of docs/adopt.md, in the order of the guide."""
    import re

    text = (REPO / "docs" / "adopt.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.S)
    return [line.split("#")[0].strip() for block in blocks for line in block.splitlines() if line.strip()]


def as_run_here(command: str) -> list[str]:
    """A command of the guide as this test runs it: the project's outfall, its schema, by absolute path."""
    import shlex

    words = shlex.split(command)
    if words[0] == ".venv/bin/outfall":
        return [sys.executable, "-m", "outfall", *words[1:]]
    if words[0] == ".venv/bin/python":
        return [sys.executable, *words[1:]]
    if words[0] == "cp":
        return ["cp", str(REPO / words[1]), *words[2:]]
    raise AssertionError(f"docs/adopt.md: a command this test does not know how to run: {command}")


@pytest.mark.slow  # `outfall run` end to end
def test_adopt_md_walks_from_a_fact_sheet_to_a_first_run(tmp_path):
    commands = adopt_commands()
    kinds = [c.split()[1] if c.startswith(".venv/bin/outfall") else c.split()[0] for c in commands]
    assert kinds == ["new-town", "cp", "rules", "run"], commands
    env = {k: v for k, v in os.environ.items() if k not in ("OUTFALL_RULES_DIR", "OUTFALL_TOWN")}

    def step(command: str) -> subprocess.CompletedProcess:
        done = subprocess.run(
            as_run_here(command), capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600
        )
        assert done.returncode == 0, (command, done.stderr)
        return done

    # 1. start the file; 2. fill in what the ordinance states, and only that
    step(commands[0])
    step(commands[1])
    rules_file = tmp_path / "my_rules" / "springfield.yaml"
    # the sections read state no rate of the charge by volume: the charge model is left unstated too
    fill(rules_file, {**FACT_SHEET, ("charge_model",): ""})
    # 3. check it: ok, and what a run will leave not judged is said before it runs
    checked = step(commands[2])
    assert "springfield.yaml: City of Seymour, version 0.1: ok" in checked.stdout
    assert "the town running Outfall: springfield" in checked.stdout
    # 4. the input forms, keyed to these rules; then the town's records and the first run
    step(f".venv/bin/outfall templates --out {tmp_path / 'forms'} --rules my_rules")
    assert "springfield:" in (tmp_path / "forms" / "letterhead.yaml").read_text(encoding="utf-8")
    data = tmp_path / "my_town"
    for folder in ("industrial_users", "lab_results", "flow"):
        source = REPO / "examples" / "towns" / "seymour" / "data" / folder
        (data / folder).mkdir(parents=True)
        for csv in source.glob("*.csv"):
            (data / folder / csv.name).write_text(csv.read_text(encoding="utf-8"), encoding="utf-8")
    step(commands[3])
    found = query_warehouse(
        tmp_path / "my_town.duckdb", "SELECT user_id, pounds, amount_set_by FROM surcharges ORDER BY 1"
    )
    # June's BOD of SY-1 (mean 250 mg/L over 1,443.75 hundred cubic feet): 1,443.75 x 0.0062321 x 50 lb
    assert found[0][0] == "SY-1" and found[0][1] == pytest.approx(1443.75 * 0.0062321 * 50)
    assert all(r[2] == "set by Appendix B, Table F" for r in found)
