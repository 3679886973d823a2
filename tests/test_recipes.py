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
    check = subprocess.run([sys.executable, "-m", "outfall.rules", "check"], capture_output=True, text=True,
                           env=env, cwd=REPO, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr
    data = small_town(tmp_path / "data")          # S-8: copper 250 ug/L (0.25 mg/L) on 2026-06-02
    wh = tmp_path / "w.duckdb"
    run = subprocess.run([sys.executable, "-m", "outfall", "run", "--data", str(data), "--warehouse", str(wh),
                          "--as-of", "2026-06-30", "--quiet"], capture_output=True, text=True, env=env, cwd=REPO,
                         timeout=600)
    assert run.returncode == 0, run.stderr
    con = duckdb.connect(str(wh), read_only=True)
    try:
        got = con.execute("SELECT sample_id, parameter, value, unit, limit_value, limit_type, rule "
                          "FROM discharge_violations WHERE parameter = 'copper'").fetchall()
    finally:
        con.close()
    assert len(got) == 1
    sample_id, parameter, value, unit, limit_value, limit_type, rule = got[0]
    assert (sample_id, parameter, unit, limit_value, limit_type) == ("S-8", "copper", "mg/L", 0.2, "max")
    assert abs(value - 0.25) < 1e-9 and "copper beyond the limit established by the Town Board" in rule


def _recipe(title: str) -> str:
    text = (REPO / "docs" / "CONTRIBUTING.md").read_text(encoding="utf-8")
    return text.split(f"### {title}\n", 1)[1].split("\n### ", 1)[0]


def test_the_panel_recipe_names_what_there_is():
    """Every file, list of panels, helper and test the recipe "Add a panel to a page" names exists."""
    import re

    import dashboards.html as html
    import dashboards.index as index
    import dashboards.sewer as sewer
    import dashboards.stormwater as stormwater
    from assets import pages
    from tests import test_dashboards, test_print

    recipe = _recipe("Add a panel to a page")
    paths = {p for p in re.findall(r"`([\w./]+\.(?:py|sql))`", recipe)}
    assert {"tests/test_dashboards.py", "assets/pages.py", "tests/test_page_sql.py"} <= paths
    for path in paths:
        assert (REPO / path).is_file(), path
    assert (REPO / "sql" / "run" / "select_dashboard_not_judged.sql").is_file()
    for module, names in ((sewer, ("SEWER_PANELS", "SewerView", "SewerData")),
                          (stormwater, ("STORMWATER_PANELS", "StormwaterView", "StormwaterData")),
                          (index, ("INDEX_PANELS", "QUARANTINE_PANELS", "IndexData", "panel_not_judged")),
                          (html, ("section", "table", "Col", "no_data", "RuleNotes", "Kpi", "kpis", "esc",
                                  "PRINT_CSS", "PageMeta")),
                          (pages, ("Reader", "NOT_JUDGED_EXAMPLES", "read_index_data")),
                          (test_print, ("visible_text",)),
                          (test_dashboards, ("test_page_functions_are_short",
                                             "test_the_quarantine_pages_reader_groups_what_was_not_judged"))):
        for name in names:
            assert name in recipe and hasattr(module, name), (module.__name__, name)
    assert index.panel_not_judged in index.QUARANTINE_PANELS
    for words in ("screen_only=True", "no-print", "print-only", "printed=False", "max_rows", "print_pdfs"):
        assert words in recipe, words
    assert "screen_only" in html.Col.__dataclass_fields__ and ".no-print" in html.PRINT_CSS
