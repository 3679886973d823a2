"""One run, one clock, one place for outputs."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from dagster import asset
from dagster_duckdb import DuckDBResource

import outfall.resources as resources
from assets.ingest import input_folders
from outfall.output_folders import output_paths
from outfall.resources import OutfallSettings
from tests.conftest import materialize


def test_a_run_across_midnight_judges_every_asset_by_the_same_day(tmp_path, monkeypatch):
    days = iter(dt.date(2026, 11, 30) + dt.timedelta(days=i) for i in range(100))
    monkeypatch.setattr(resources.TownRules, "today", lambda self: next(days))
    seen: list[dt.date] = []

    @asset
    def first(settings: OutfallSettings) -> None:
        seen.append(settings.as_of_date())

    @asset(deps=[first])
    def second(settings: OutfallSettings) -> None:
        seen.append(settings.as_of_date())
        seen.append(settings.as_of_date())

    warehouse = tmp_path / "w.duckdb"
    result = materialize(
        [input_folders, first, second],
        resources={
            "duckdb": DuckDBResource(database=str(warehouse)),
            "settings": OutfallSettings(data_dir=str(tmp_path)),
        },
    )
    assert result.success
    con = duckdb.connect(str(warehouse), read_only=True)
    recorded = con.execute("SELECT as_of, dashboards_dir FROM outfall_run").fetchall()
    con.close()
    assert len(set(seen)) == 1
    assert recorded == [(seen[0], str(tmp_path / "dashboards"))]


def test_the_daemons_runs_take_the_day_from_outfall_as_of(monkeypatch):
    """The Definitions' resources read OUTFALL_AS_OF as Dagster's EnvVar, when a run starts."""
    from dagster import EnvVar, build_resources as initialized

    from pipelines.definitions import build_resources

    monkeypatch.setenv("OUTFALL_AS_OF", "2026-03-02")
    settings = build_resources()["settings"]
    assert isinstance(settings.as_of, EnvVar) and settings.as_of.env_var_name == "OUTFALL_AS_OF"
    with initialized({"settings": settings}) as started:
        assert started.settings.as_of_date() == dt.date(2026, 3, 2)
    assert OutfallSettings(data_dir=".", as_of="2026-06-30").as_of_date() == dt.date(2026, 6, 30)
    monkeypatch.delenv("OUTFALL_AS_OF")
    assert build_resources()["settings"].as_of == ""


def test_as_of_given_on_the_command_line_is_the_day():
    settings = OutfallSettings(data_dir=".", as_of="2026-06-30")
    assert settings.as_of_date() == dt.date(2026, 6, 30)


def test_one_rule_for_output_folders(tmp_path):
    beside = output_paths(str(tmp_path / "w.duckdb"))
    assert beside.dashboards == tmp_path / "dashboards"
    assert beside.letters("sewer") == tmp_path / "dashboards" / "letters" / "sewer"
    assert beside.billing_exports == tmp_path / "exports" / "billing"
    elsewhere = output_paths(str(tmp_path / "w.duckdb"), str(tmp_path / "pages"))
    assert elsewhere.dashboards == tmp_path / "pages"
    assert elsewhere.letters("stormwater") == tmp_path / "pages" / "letters" / "stormwater"
    assert elsewhere.exports == tmp_path / "exports"
    nowhere = output_paths(":memory:")
    assert nowhere.dashboards is None and nowhere.letters("sewer") is None and nowhere.exports is None
    assert isinstance(output_paths(":memory:", str(tmp_path / "p")).exports, Path)


@pytest.mark.slow
def test_export_copies_the_pages_from_where_the_run_wrote_them(tmp_path):
    """`outfall export` used to miss pages written with --dashboards (it looked beside the warehouse)."""
    data = tmp_path / "data"
    data.mkdir()
    warehouse, pages, out = tmp_path / "w.duckdb", tmp_path / "elsewhere" / "pages", tmp_path / "out"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "outfall",
            "run",
            "--data",
            str(data),
            "--warehouse",
            str(warehouse),
            "--as-of",
            "2026-06-30",
            "--dashboards",
            str(pages),
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    assert (pages / "index.html").is_file() and not (tmp_path / "dashboards").exists()
    export = subprocess.run(
        [sys.executable, "-m", "outfall", "export", "--warehouse", str(warehouse), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert export.returncode == 0, export.stderr
    assert (out / "dashboards" / "index.html").is_file()
