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
  citation: "Woodbury Code ch. 253 Part 2, prohibited discharges, B: substances in excess of the limits of
    Table 7-1; discharges requiring Town Board approval: iron, chromium, copper, zinc and similar substances
    beyond the limits established by the Town Board"
  effective_from: null
  limits:
    - parameter: copper
      limit_type: max
      value: 0.2
      unit: mg/L
      citation: "Woodbury Code ch. 253 Part 2, discharges requiring Town Board approval: copper beyond the
        limit established by the Town Board"
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
    for module, names in (
        (sewer, ("SEWER_PANELS", "SewerView", "SewerData")),
        (stormwater, ("STORMWATER_PANELS", "StormwaterView", "StormwaterData")),
        (index, ("INDEX_PANELS", "QUARANTINE_PANELS", "IndexData", "panel_not_judged")),
        (
            html,
            (
                "section",
                "table",
                "Col",
                "no_data",
                "RuleNotes",
                "Kpi",
                "kpis",
                "esc",
                "PRINT_CSS",
                "PageMeta",
            ),
        ),
        (pages, ("Reader", "NOT_JUDGED_EXAMPLES", "read_index_data")),
        (test_print, ("visible_text",)),
        (
            test_dashboards,
            ("test_page_functions_are_short", "test_the_quarantine_pages_reader_groups_what_was_not_judged"),
        ),
    ):
        for name in names:
            assert name in recipe and hasattr(module, name), (module.__name__, name)
    assert index.panel_not_judged in index.QUARANTINE_PANELS
    for words in ("screen_only=True", "no-print", "print-only", "printed=False", "max_rows", "print_pdfs"):
        assert words in recipe, words
    assert "screen_only" in html.Col.__dataclass_fields__ and ".no-print" in html.PRINT_CSS


def test_the_input_dataset_recipe_holds_end_to_end(tmp_path, monkeypatch):
    """ "Add an input dataset" followed on a throwaway folder: the spec registered (step 1), named in its
    page's block and the page regenerated (step 2), read through its ingestion asset (step 3): its table
    made from the spec, a bad row quarantined with its reason."""
    import datetime as dt

    from assets.ingest import build_ingest_asset
    from outfall.ingest import docs
    from outfall.ingest.datasets import BY_HAND, DATASETS, Column, Dataset
    from tests.conftest import materialize_town, query_warehouse, write

    recipe = _recipe("Add an input dataset")
    for words in (
        "python -m outfall.ingest docs",
        "--check",
        "tests/test_ingest_docs.py",
        "doc=",
        "key_doc",
        "Folders:",
        docs.END,
        "outfall/ingest/stormwater.py",
        "expectations/build_suites.py",
        "tests/test_ingest_<name>.py",
    ):
        assert words in recipe, words
    spec = Dataset(
        "hydrant_flushes",
        (
            Column("hydrant_id", required=True),
            Column("flushed_on", "date", required=True),
            Column("gallons", "number", nonnegative=True, doc="gallons flushed"),
        ),
        key=("hydrant_id", "flushed_on"),
        extensions=BY_HAND,
        group="stormwater",
        description="Hydrants flushed.",
    )
    monkeypatch.setitem(DATASETS, spec.name, spec)  # what register() does; undone after the test

    pages = tmp_path / "docs"
    pages.mkdir()
    for page in docs.PAGES:
        shutil.copy(docs.DOCS_DIR / page, pages / page)
    with pytest.raises(docs.DocsError, match="in no generated block of docs/inputs\\*\\.md: hydrant_flushes"):
        docs.stale_pages(pages)
    page = pages / "inputs-stormwater.md"
    text = page.read_text(encoding="utf-8")
    assert text.count("Folders: milestones,") == 1
    named = text.replace("Folders: milestones,", "Folders: milestones, hydrant_flushes,")
    page.write_text(named, encoding="utf-8")
    assert docs.write_pages(pages) == ["inputs-stormwater.md"] and docs.stale_pages(pages) == []
    section = page.read_text(encoding="utf-8").split("### `hydrant_flushes`\n", 1)[1].split("\n### ", 1)[0]
    assert "Hydrants flushed." in section and "Natural key: hydrant_id + flushed_on." in section
    assert "| `flushed_on` | yes | date |  |" in section
    assert "| `gallons` |  | number, 0 or more | gallons flushed |" in section

    data = tmp_path / "data"
    write(
        data,
        "hydrant_flushes/spring.csv",
        "Hydrant_ID,flushed_on,gallons\nH-1,2026-05-01,1200\nH-2,someday,5\n",
    )
    wh = tmp_path / "w.duckdb"
    materialize_town([build_ingest_asset(spec)], data, wh, "2026-06-30")
    assert query_warehouse(wh, "SELECT hydrant_id, flushed_on, gallons FROM hydrant_flushes") == [
        ("H-1", dt.date(2026, 5, 1), 1200.0)
    ]
    reasons = "SELECT row_number, reason FROM quarantine WHERE dataset = 'hydrant_flushes'"
    bad_day = "'someday' in column 'flushed_on' is not a date (expected YYYY-MM-DD)"
    assert query_warehouse(wh, reasons) == [(2, bad_day)]
