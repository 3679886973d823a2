"""`outfall run` makes only what changed (issue 47): with nothing new it makes nothing and says so; one
new lab-results file makes what reads it, not billing, slugs or stormwater; a new day judges again what
reads the inputs as of the day (contract 8.1), never "nothing new". Each leaves the same tables as a full
run of the same files on a new warehouse."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmarks.fault_drill import table_differences, warehouse_tables
from tests.conftest import run_cli, small_town, write

pytestmark = pytest.mark.slow

AS_OF = "2026-06-30"
# What is not the same on a new warehouse: when and where it was recorded (the record of versions holds
# the run's folders), and the schema's digest (the same).
NOT_COMPARED = ("_asset_versions", "_last_run")


def _run(data: Path, warehouse: Path, *more: str):
    result = run_cli("run", "--data", str(data), "--warehouse", str(warehouse), "--as-of", AS_OF, *more)
    assert result.returncode == 0, result.stderr
    return result


def steps_of_last_run(warehouse: Path) -> set[str]:
    """The Dagster steps the last `outfall run` on ``warehouse`` started (its run log)."""
    lines = (warehouse.parent / "outfall.log").read_text(encoding="utf-8").splitlines()
    start = max(i for i, line in enumerate(lines) if " INFO run: " in line and "tables and" not in line)
    return {line.split()[4] for line in lines[start:] if " INFO step " in line and line.endswith(" started")}


def same_as_a_full_run(data: Path, warehouse: Path, tmp_path: Path, *more: str) -> list[str]:
    """What differs between ``warehouse`` and a full run of the same files on a new warehouse."""
    fresh = tmp_path / "fresh" / "w.duckdb"
    shutil.rmtree(fresh.parent, ignore_errors=True)
    _run(data, fresh, "--quiet", *more)
    expected, actual = (warehouse_tables(w, w.parent) for w in (fresh, warehouse))
    for name in NOT_COMPARED:
        expected.pop(name, None)
        actual.pop(name, None)
    for tables in (expected, actual):  # the data folder is the same; the warehouses are not
        tables.pop("outfall_run", None)
    return table_differences(expected, actual)


@pytest.fixture
def ran(tmp_path):
    data = small_town(tmp_path / "data")
    warehouse = tmp_path / "run" / "w.duckdb"
    first = _run(data, warehouse)
    assert "assets materialized" in first.stdout and "nothing new" not in first.stdout
    return data, warehouse


def test_nothing_new_makes_nothing_and_says_so(ran):
    data, warehouse = ran
    again = _run(data, warehouse)
    assert again.stdout.startswith("outfall: nothing new since the last run")
    assert "0 assets materialized" in again.stdout
    assert steps_of_last_run(warehouse) == set()
    # a file touched but not changed: the inputs are read again, nothing else is made
    for path in (data / "rainfall").iterdir():
        path.touch()
    touched = _run(data, warehouse)
    assert "0 assets materialized" in touched.stdout
    assert steps_of_last_run(warehouse) == {"input_folders"}
    assert _run(data, warehouse).stdout.startswith("outfall: nothing new since the last run")


def test_one_new_lab_file_makes_what_reads_it_and_the_same_tables_as_a_full_run(ran, tmp_path):
    data, warehouse = ran
    write(
        data,
        "lab_results/late.csv",
        "sample_id,user_id,collected_at,sample_type,parameter,result,unit,mdl,lab,method\n"
        "S-20,IU-1,2026-06-03T09:00,composite,BOD,900,mg/L,,LabA,SM5210B\n",
    )
    _run(data, warehouse)
    steps = steps_of_last_run(warehouse)
    assert {"input_folders", "discharge_violations", "notices", "sewer_dashboard", "dashboard_index"} <= steps
    assert not steps & {"sewer_billing", "billing_exports", "slug_events", "swppp_inspection_findings"}
    assert same_as_a_full_run(data, warehouse, tmp_path) == []


def test_a_new_day_judges_again_what_reads_the_day(ran, tmp_path):
    """Every table is judged from the inputs as they stood at the end of the day (contract 8.1: a sample,
    a reading, a mailing dated after it is not yet a fact), so a run as of another day over the same files
    makes them again, and is never short-circuited as nothing new."""
    data, warehouse = ran
    later = run_cli("run", "--data", str(data), "--warehouse", str(warehouse), "--as-of", "2026-07-15")
    assert later.returncode == 0, later.stderr
    assert "nothing new" not in later.stdout
    steps = steps_of_last_run(warehouse)
    assert {"notices", "swppp_upcoming", "dashboard_index", "discharge_violations", "slug_events"} <= steps
    fresh = tmp_path / "fresh" / "w.duckdb"
    result = run_cli(
        "run", "--data", str(data), "--warehouse", str(fresh), "--as-of", "2026-07-15", "--quiet"
    )
    assert result.returncode == 0, result.stderr
    expected, actual = (warehouse_tables(w, w.parent) for w in (fresh, warehouse))
    for tables in (expected, actual):
        for name in (*NOT_COMPARED, "outfall_run"):
            tables.pop(name, None)
    assert table_differences(expected, actual) == []
