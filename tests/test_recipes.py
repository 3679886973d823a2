"""The recipes of docs/CONTRIBUTING.md, followed to the letter on a copy of the rules: each touches the
rules file and nothing else, and the run applies the change."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import duckdb
import pytest

from tests.conftest import REPO, small_town

COPPER = """table_7_1:
  citation: "Woodbury Code ch. 253 Part 2, prohibited discharges, B: substances in excess of the limits of Table 7-1; discharges requiring Town Board approval: iron, chromium, copper, zinc and similar substances beyond the limits established by the Town Board"
  effective_from: 1986-11-20
  limits:
    - parameter: copper
      limit_type: max
      value: 0.2
      unit: mg/L
      citation: "Woodbury Code ch. 253 Part 2, discharges requiring Town Board approval: copper beyond the limit established by the Town Board"
      adopted_by: "Resolution 2026-7"
      effective_from: 2026-03-01
"""


@pytest.mark.slow  # `outfall run` end to end
def test_add_a_parameter_limit_touches_only_the_rules_file(tmp_path):
    rules = tmp_path / "rules"
    shutil.copytree(REPO / "rules", rules)
    text = (rules / "woodbury.yaml").read_text()
    start = text.index("table_7_1:\n")
    end = text.index("  limits: []\n", start) + len("  limits: []\n")
    (rules / "woodbury.yaml").write_text(text[:start] + COPPER + text[end:])
    env = dict(os.environ, OUTFALL_RULES_DIR=str(rules))
    check = subprocess.run(
        [sys.executable, "-m", "outfall.rules", "check"],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    data = small_town(tmp_path / "data")  # S-8: copper 250 ug/L (0.25 mg/L) on 2026-06-02
    wh = tmp_path / "w.duckdb"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "outfall",
            "run",
            "--data",
            str(data),
            "--warehouse",
            str(wh),
            "--as-of",
            "2026-06-30",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    con = duckdb.connect(str(wh), read_only=True)
    try:
        got = con.execute(
            "SELECT sample_id, parameter, value, unit, limit_value, limit_type, rule "
            "FROM discharge_violations WHERE parameter = 'copper'"
        ).fetchall()
    finally:
        con.close()
    assert len(got) == 1
    sample_id, parameter, value, unit, limit_value, limit_type, rule = got[0]
    assert (sample_id, parameter, unit, limit_value, limit_type) == ("S-8", "copper", "mg/L", 0.2, "max")
    assert abs(value - 0.25) < 1e-9 and "copper beyond the limit established by the Town Board" in rule
