"""The one Definitions loads, with every ingestion asset, its one job, two sensors and the automation."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from dagster import AssetKey, AutomationCondition, DagsterInstance, build_sensor_context

from outfall.ingest.registry import CONTRACT_DATASETS

REPO = Path(__file__).resolve().parents[1]


def test_definitions_load():
    from pipelines.definitions import defs

    repo = defs.get_repository_def()
    keys = {k.to_user_string() for k in repo.assets_defs_by_key}
    assert set(CONTRACT_DATASETS) | {"quarantine", "outfall_run"} <= keys
    assert {j.name for j in repo.get_all_jobs()} == {"__ASSET_JOB", "load_inputs"}
    assert not repo.schedule_defs
    assert {s.name for s in repo.sensor_defs} == {"input_files_sensor", "outfall_automation"}


def test_every_asset_has_its_owner_automation_and_pool():
    from pipelines.definitions import defs

    graph = defs.resolve_asset_graph()
    for key in graph.get_all_asset_keys():
        node = graph.get(key)
        assert node.owners, key
        assert node.automation_condition is not None, key
        assert node.pools == {"outfall_warehouse"}, key
    bills = graph.get(AssetKey("sewer_bills"))
    assert bills.owners == ["team:billing"]
    assert bills.metadata["dagster/table_name"] == "main.sewer_bills"
    columns = [c.name for c in bills.metadata["dagster/column_schema"].columns]
    assert columns[:4] == ["year", "parcel_id", "district", "property_class"]
    assert graph.get(AssetKey("slug_events")).owners == ["team:sewer"]
    assert graph.get(AssetKey("sites")).owners == ["team:stormwater"]
    assert isinstance(graph.get(AssetKey("discharge_violations")).automation_condition, AutomationCondition)


def test_the_ingestion_and_checks_are_few_steps():
    """The 27 folders, the quarantine, the run's record and the input checks are one step; the checks
    written beside their assets one step per stage."""
    from pipelines.definitions import defs

    job = defs.resolve_implicit_global_asset_job_def()
    steps = {node.name for node in job.graph.node_dict.values()}
    assert "input_folders" in steps
    assert not any(name in steps for name in ("lab_results", "quarantine", "input_checks", "reading_months"))
    assert len(steps) <= 45


def test_loading_the_definitions_prints_no_warning():
    code = "import pipelines.definitions"
    result = subprocess.run(
        [sys.executable, "-W", "always", "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "Warning" not in result.stderr, result.stderr


def test_input_sensor_fires_once_per_change(tmp_path, monkeypatch):
    monkeypatch.setenv("OUTFALL_DATA_DIR", str(tmp_path))
    from pipelines.definitions import defs

    sensor = defs.get_repository_def().get_sensor_def("input_files_sensor")
    instance = DagsterInstance.ephemeral()  # the daemon's (the sensor registers partitions in it)
    ctx = build_sensor_context(cursor=None, instance=instance)
    assert list(sensor.evaluate_tick(ctx).run_requests or []) == []
    folder = Path(tmp_path) / "rainfall"
    folder.mkdir()
    (folder / "r.csv").write_text("gauge_id,date,precip_in\nG,2026-01-01,0.1\n")
    first = sensor.evaluate_tick(ctx)
    assert len(first.run_requests) == 1
    assert first.run_requests[0].tags["outfall/folders"] == "rainfall"
    again = sensor.evaluate_tick(build_sensor_context(cursor=first.cursor, instance=instance))
    assert not again.run_requests


def test_each_asset_has_the_condition_docs_operating_names():
    """The ingestion step's assets run daily at 06:00 in the town's time zone (the day judged by moves);
    every other asset when what it reads was updated. Regression: the daily condition was given by
    identity to the ingestion step's definition, which the loader copies, so every asset had eager."""
    from pipelines.definitions import DAILY_CRON, DAILY_LABEL, EAGER_LABEL, INGEST_KEYS, defs

    graph = defs.resolve_asset_graph()
    timezone = defs.resources["rules"].timezone()
    daily, eager = [], []
    for key in graph.get_all_asset_keys():
        condition = graph.get(key).automation_condition
        (daily if condition.get_label() == DAILY_LABEL else eager).append(key)
        if key in INGEST_KEYS:
            assert condition.get_label() == DAILY_LABEL, key
            crons = [c for c in condition.children if hasattr(c, "cron_schedule")]
            assert [(c.cron_schedule, c.cron_timezone) for c in crons] == [(DAILY_CRON, timezone)], key
        else:
            assert condition.get_label() == EAGER_LABEL, key
    assert set(daily) == set(INGEST_KEYS) and AssetKey("lab_results") in daily
    assert AssetKey("sewer_bills") in eager and AssetKey("outfall_run") in daily


SENSOR_KEY = """
import os, sys
from pathlib import Path
from dagster import DagsterInstance, build_sensor_context
from pipelines.definitions import defs

sensor = defs.get_repository_def().get_sensor_def("input_files_sensor")
context = build_sensor_context(cursor=None, instance=DagsterInstance.ephemeral())
print(sensor.evaluate_tick(context).run_requests[0].run_key)
"""


def test_the_input_sensors_run_key_is_the_same_in_every_process(tmp_path):
    """Regression: the run key was Python's hash() of the folders' fingerprint, salted per process, so a
    restarted daemon asked again for a run it had asked for."""
    (tmp_path / "rainfall").mkdir()
    (tmp_path / "rainfall" / "r.csv").write_text("gauge_id,date,precip_in\nG,2026-01-01,0.1\n")
    keys = set()
    for seed in ("1", "2"):
        env = dict(os.environ, OUTFALL_DATA_DIR=str(tmp_path), PYTHONHASHSEED=seed)
        done = subprocess.run(
            [sys.executable, "-c", SENSOR_KEY], capture_output=True, text=True, cwd=REPO, env=env, timeout=120
        )
        assert done.returncode == 0, done.stderr
        keys.add(done.stdout.strip().splitlines()[-1])
    assert len(keys) == 1 and keys.pop().startswith("inputs ")
