"""One writer of the warehouse at a time: `outfall run` without DAGSTER_HOME, on a warehouse another
process holds, exits 2 with one line within seconds, having left every table whole; run again, it
finishes what it did not do."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import duckdb
import pytest

from benchmarks.fault_drill import table_differences, warehouse_tables
from tests.conftest import REPO, run_cli, small_town

pytestmark = pytest.mark.slow


def _hold_when_loaded(warehouse, log, proc, seconds: float = 120):
    """A read-write connection to ``warehouse``, opened as soon as the run's ingestion step finished."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        if log.exists() and "step input_folders finished" in log.read_text(encoding="utf-8"):
            try:
                return duckdb.connect(str(warehouse))
            except duckdb.IOException:
                pass
        time.sleep(0.02)
    raise AssertionError("the run ended before the warehouse could be taken")


def test_a_run_whose_warehouse_another_writer_takes_exits_2_and_a_rerun_finishes(tmp_path):
    data = small_town(tmp_path / "data")
    warehouse = tmp_path / "w.duckdb"
    env = dict(os.environ, GX_ANALYTICS_ENABLED="false")
    env.pop("DAGSTER_HOME", None)
    command = [sys.executable, "-m", "outfall", "run", "--data", str(data), "--warehouse", str(warehouse)]
    command += ["--as-of", "2026-06-30"]
    proc = subprocess.Popen(
        command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    held = _hold_when_loaded(warehouse, tmp_path / "outfall.log", proc)
    taken = time.monotonic()
    try:
        out, err = proc.communicate(timeout=120)
        waited = time.monotonic() - taken
    finally:
        held.close()
    assert proc.returncode == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "is in use by another writer" in lines[0] and "run again" in lines[0], err
    assert waited < 20  # fails fast: not Dagster's ten retries with the pool's slot held
    again = run_cli(*command[3:], "--quiet")
    assert again.returncode == 0, again.stderr
    whole = tmp_path / "whole" / "w.duckdb"
    once = run_cli("run", "--data", str(data), "--warehouse", str(whole), "--as-of", "2026-06-30", "--quiet")
    assert once.returncode == 0, once.stderr
    expected, actual = (warehouse_tables(w, w.parent) for w in (whole, warehouse))
    for tables in (expected, actual):
        for name in ("_asset_versions", "_last_run", "outfall_run"):
            tables.pop(name, None)
    assert table_differences(expected, actual) == []


def test_a_warehouse_held_when_the_run_starts_exits_2_at_once(tmp_path):
    warehouse = tmp_path / "w.duckdb"
    held = duckdb.connect(str(warehouse))
    try:
        started = time.monotonic()
        result = run_cli("run", "--data", str(tmp_path), "--warehouse", str(warehouse))
        elapsed = time.monotonic() - started
    finally:
        held.close()
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "DuckDB lock" in result.stderr and elapsed < 15
