"""The one Definitions of Outfall: `dagster dev -m pipelines.definitions`.

Assets and asset checks are collected from the ``assets`` package. The DuckDB
warehouse path comes from OUTFALL_WAREHOUSE (default ``warehouse/outfall.duckdb``
in the repository) and the input folder from OUTFALL_DATA_DIR (default
``demo_output/data``, where ``outfall demo`` writes the sample town).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

os.environ.setdefault("GX_ANALYTICS_ENABLED", "false")

from dagster import (  # noqa: E402
    AssetSelection,
    DagsterInstance,
    DefaultScheduleStatus,
    DefaultSensorStatus,
    Definitions,
    RunRequest,
    ScheduleDefinition,
    SensorEvaluationContext,
    SkipReason,
    define_asset_job,
    in_process_executor,
    load_asset_checks_from_package_module,
    load_assets_from_package_module,
    sensor,
)
from dagster_duckdb import DuckDBResource  # noqa: E402

import assets as assets_package  # noqa: E402
from outfall.ingest.datasets import DATASETS  # noqa: E402
from outfall.ingest.files import list_input_files  # noqa: E402
from outfall.resources import RulesResource, default_data_dir, default_warehouse, run_resources  # noqa: E402

all_assets = load_assets_from_package_module(assets_package)
all_checks = load_asset_checks_from_package_module(assets_package)

# `outfall run` materializes this job: every asset, with its checks.
everything_job = define_asset_job(
    "everything",
    selection=AssetSelection.all(),
    description=("Every asset of Outfall: ingestion, compliance, billing, stormwater, dashboards."),
)

daily_compliance_job = define_asset_job(
    "daily_compliance",
    selection=AssetSelection.groups("sewer_administrator").upstream().required_multi_asset_neighbors(),
    description="The sewer administrator's morning run: new lab and meter data, violations, slugs.",
)
stormwater_review_job = define_asset_job(
    "stormwater_review",
    selection=AssetSelection.groups("stormwater_officer").upstream().required_multi_asset_neighbors(),
    description="The stormwater officer's Monday review: inspections due, late and overdue, notices.",
)
annual_billing_job = define_asset_job(
    "annual_billing",
    selection=AssetSelection.groups("billing").upstream().required_multi_asset_neighbors(),
    description="The clerk's annual sewer roll.",
)


def build_schedules(timezone: str) -> list[ScheduleDefinition]:
    """The three schedules, at the town's local hours (``timezone``: its rules')."""
    return [
        ScheduleDefinition(
            job=daily_compliance_job,
            cron_schedule="0 6 * * *",
            execution_timezone=timezone,
            name="daily_compliance_schedule",
            default_status=DefaultScheduleStatus.STOPPED,
        ),
        ScheduleDefinition(
            job=stormwater_review_job,
            cron_schedule="0 7 * * 1",
            execution_timezone=timezone,
            name="monday_stormwater_review_schedule",
            default_status=DefaultScheduleStatus.STOPPED,
        ),
        ScheduleDefinition(
            job=annual_billing_job,
            cron_schedule="0 8 2 1 *",
            execution_timezone=timezone,
            name="annual_billing_schedule",
            default_status=DefaultScheduleStatus.STOPPED,
        ),
    ]


def folder_fingerprint(folder: Path) -> str:
    """Names, sizes and modification times of a folder's input files."""
    parts = []
    for path in list_input_files(folder):
        stat = path.stat()
        parts.append(f"{path.relative_to(folder).as_posix()}:{stat.st_size}:{stat.st_mtime_ns}")
    return "|".join(parts)


def build_folder_sensor(dataset: str):
    job = define_asset_job(
        f"ingest_{dataset}",
        selection=AssetSelection.assets(dataset).downstream(),
        description=f"Load new files of `{dataset}/` and refresh everything that depends on them.",
    )

    @sensor(
        name=f"{dataset}_files_sensor",
        job=job,
        minimum_interval_seconds=60,
        default_status=DefaultSensorStatus.STOPPED,
        description=f"Starts a run when files land or change in the `{dataset}/` input folder.",
    )
    def _sensor(context: SensorEvaluationContext):
        folder = Path(default_data_dir()) / dataset
        fingerprint = folder_fingerprint(folder)
        if not fingerprint or fingerprint == context.cursor:
            return SkipReason(f"no new files in {folder}")
        context.update_cursor(fingerprint)
        return RunRequest(run_key=f"{dataset}:{abs(hash(fingerprint))}")

    return job, _sensor


# One sensor per input folder: the contract's and those the areas register
# (importing the assets package above registered them).
_asset_names = {key.to_user_string() for a in all_assets for key in a.keys}
_sensor_pairs = [build_folder_sensor(d) for d in sorted(DATASETS) if d in _asset_names]


def run_instance() -> DagsterInstance:
    """The Dagster instance of one `outfall run`: Dagster's ephemeral instance (nothing on disk),
    its event log on one held connection (``_hold_event_log_connection``)."""
    instance = DagsterInstance.ephemeral()
    _hold_event_log_connection(instance.event_log_storage)
    return instance


def _hold_event_log_connection(storage) -> None:
    """Make the in-memory event log use the one SQLite connection it already holds, instead of
    opening a new one, with two PRAGMAs, for each of the thousands of reads and writes of a run's
    events. Dagster has no public setting for it, so this reaches into the private ``_connect``,
    ``_db_lock`` and ``_held_conn`` of its ``InMemoryEventLogStorage``; on a Dagster without them
    the storage is left as it is (slower, nothing else changes)."""
    lock, held = getattr(storage, "_db_lock", None), getattr(storage, "_held_conn", None)
    if lock is None or held is None or not hasattr(storage, "_connect"):
        return

    @contextlib.contextmanager
    def connect():
        with lock, held.begin():
            yield held

    storage._connect = connect  # noqa: SLF001 - see the docstring


def build_resources(warehouse: str | None = None, **settings) -> dict:
    """The resources of a run: the DuckDB warehouse file, the run settings and the rules of the run (the
    rules folder and the town from ``settings``' rules_dir and town, else OUTFALL_RULES_DIR and OUTFALL_TOWN)."""
    return {
        "duckdb": DuckDBResource(database=str(Path(warehouse or default_warehouse()))),
        **run_resources(**settings),
    }


def build_definitions(resources: dict | None = None) -> Definitions:
    """The Definitions, bound to ``resources`` (default: the environment's). `dagster dev`
    loads ``defs`` below; `outfall run` builds the same Definitions with the folders it
    was given and executes its job ``everything``."""
    resources = resources if resources is not None else build_resources()
    return Definitions(
        assets=all_assets,
        asset_checks=all_checks,
        jobs=[everything_job, daily_compliance_job, stormwater_review_job, annual_billing_job]
        + [job for job, _ in _sensor_pairs],
        schedules=build_schedules(_timezone(resources)),
        sensors=[s for _, s in _sensor_pairs],
        resources=resources,
        # One process: DuckDB allows a single writing process per file, and GX is
        # imported once instead of once per step.
        executor=in_process_executor,
    )


def _timezone(resources: dict | None) -> str:
    """The town's time zone: the rules resource's (the schedules run at the town's hours)."""
    rules = (resources or {}).get("rules")
    return (rules if isinstance(rules, RulesResource) else RulesResource()).timezone()


defs = build_definitions()
