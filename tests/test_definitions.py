"""The one Definitions loads, with every ingestion asset, jobs, sensors and schedules."""

from __future__ import annotations

from pathlib import Path

from dagster import build_sensor_context

from outfall.ingest.registry import CONTRACT_DATASETS


def test_definitions_load():
    from pipelines.definitions import defs

    repo = defs.get_repository_def()
    keys = {k.to_user_string() for k in repo.assets_defs_by_key}
    assert set(CONTRACT_DATASETS) | {"quarantine"} <= keys
    jobs = {j.name for j in repo.get_all_jobs()}
    assert {"daily_compliance", "stormwater_review", "annual_billing"} <= jobs
    # everything is a few jobs run in order, one per partitions definition (pipelines.stages)
    assert {
        "everything_1_unpartitioned",
        "everything_2_by_month",
        "everything_3_by_billing_year",
        "everything_4_unpartitioned",
    } <= jobs
    assert {s.name for s in repo.schedule_defs} == {
        "daily_compliance_schedule",
        "monday_stormwater_review_schedule",
        "annual_billing_schedule",
    }
    assert {f"{d}_files_sensor" for d in CONTRACT_DATASETS} <= {s.name for s in repo.sensor_defs}


def test_folder_sensor_fires_once_per_change(tmp_path, monkeypatch):
    monkeypatch.setenv("OUTFALL_DATA_DIR", str(tmp_path))
    from pipelines.definitions import defs

    sensor = defs.get_repository_def().get_sensor_def("rainfall_files_sensor")
    ctx = build_sensor_context(cursor=None)
    assert list(sensor.evaluate_tick(ctx).run_requests or []) == []
    folder = Path(tmp_path) / "rainfall"
    folder.mkdir()
    (folder / "r.csv").write_text("gauge_id,date,precip_in\nG,2026-01-01,0.1\n")
    first = sensor.evaluate_tick(ctx)
    assert len(first.run_requests) == 1
    again = sensor.evaluate_tick(build_sensor_context(cursor=first.cursor))
    assert not again.run_requests
