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
    AssetKey,
    AssetSelection,
    DagsterInstance,
    DefaultScheduleStatus,
    DefaultSensorStatus,
    Definitions,
    EventLogEntry,
    RunRequest,
    ScheduleDefinition,
    ScheduleEvaluationContext,
    SensorEvaluationContext,
    SkipReason,
    asset_sensor,
    define_asset_job,
    in_process_executor,
    load_asset_checks_from_package_module,
    load_assets_from_package_module,
    schedule,
    sensor,
)
from dagster_duckdb import DuckDBResource  # noqa: E402

import assets as assets_package  # noqa: E402
from assets.common import BILLING_YEARS, READING_MONTHS  # noqa: E402
from outfall.ingest.datasets import DATASETS  # noqa: E402
from outfall.ingest.files import list_input_files  # noqa: E402
from outfall.resources import RulesResource, default_data_dir, default_warehouse, run_resources  # noqa: E402
from pipelines.stages import RANGE_END, RANGE_START, Stage, asset_graph, plan_stages  # noqa: E402

all_assets = load_assets_from_package_module(assets_package)
all_checks = load_asset_checks_from_package_module(assets_package)

# A Dagster run targets one partitions definition, so every asset is a few jobs run in order (the
# stages, pipelines.stages): the inputs, the readings by month, billing by year, then what reads them.
# `outfall run` runs them one after the other; in the UI, "Materialize all" on the asset graph, or a
# backfill of a month or a billing year, does the same.
STAGES: list[Stage] = plan_stages(all_assets)
PARTITIONS, PARENTS = asset_graph(all_assets)
PARTITIONED = [k for k, d in PARTITIONS.items() if d is not None]
_STAGE_WORDS = {
    "unpartitioned": "Assets without partitions",
    "by_month": "Readings by month",
    "by_billing_year": "Billing by year",
}
stage_jobs = [
    define_asset_job(
        stage.job_name,
        selection=AssetSelection.assets(*stage.keys),
        partitions_def=stage.partitions_def,
        description=f"Step {stage.index + 1} of {len(STAGES)} of a run of everything (outfall run): "
        f"{_STAGE_WORDS.get(stage.label, stage.label).lower()}.",
    )
    for stage in STAGES
]


def _unpartitioned(selection: AssetSelection) -> AssetSelection:
    """``selection`` without the partitioned assets: those run by month or by billing year."""
    return selection.required_multi_asset_neighbors() - AssetSelection.assets(*PARTITIONED)


daily_compliance_job = define_asset_job(
    "daily_compliance",
    selection=_unpartitioned(AssetSelection.groups("sewer_administrator").upstream()),
    description="The sewer administrator's morning run: new lab and meter data, violations (slugs are "
    "judged by month: the readings' jobs and sensors).",
)
stormwater_review_job = define_asset_job(
    "stormwater_review",
    selection=_unpartitioned(AssetSelection.groups("stormwater_officer").upstream()),
    description="The stormwater officer's Monday review: inspections due, late and overdue, notices.",
)
annual_billing_job = define_asset_job(
    "annual_billing",
    selection=AssetSelection.assets(*[k for k in PARTITIONED if PARTITIONS[k] == BILLING_YEARS]),
    partitions_def=BILLING_YEARS,
    description="The clerk's annual sewer roll: one billing year (a partition), its bills and register.",
)


def build_schedules(timezone: str) -> list[ScheduleDefinition]:
    """The three schedules, at the town's local hours (``timezone``: its rules')."""

    @schedule(
        job=annual_billing_job,
        cron_schedule="0 8 2 1 *",
        execution_timezone=timezone,
        name="annual_billing_schedule",
        default_status=DefaultScheduleStatus.STOPPED,
        description="On January 2, bills the new year (its partition), once it has rates.",
    )
    def annual_billing_schedule(context: ScheduleEvaluationContext):
        year = str(context.scheduled_execution_time.year)
        if year not in context.instance.get_dynamic_partitions(BILLING_YEARS.name):
            return SkipReason(f"{year} has no rates yet: nothing to bill")
        return RunRequest(run_key=f"billing {year}", partition_key=year)

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
        annual_billing_schedule,
    ]


def folder_fingerprint(folder: Path) -> str:
    """Names, sizes and modification times of a folder's input files."""
    parts = []
    for path in list_input_files(folder):
        stat = path.stat()
        parts.append(f"{path.relative_to(folder).as_posix()}:{stat.st_size}:{stat.st_mtime_ns}")
    return "|".join(parts)


def build_folder_sensor(dataset: str):
    first = AssetSelection.assets(*STAGES[0].keys)  # the unpartitioned stage that loads the folders
    job = define_asset_job(
        f"ingest_{dataset}",
        selection=AssetSelection.assets(dataset).downstream() & first,
        description=f"Load new files of `{dataset}/` and refresh what depends on them "
        "(the partitions they touch are requested apart).",
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

# The partitions new files touch: the folder sensors' runs record them (the assets reading_months and
# billing_years), and these two sensors request just those partitions.
_month_stage = next(s for s in STAGES if s.partitions_def == READING_MONTHS)
_year_stage = next(s for s in STAGES if s.partitions_def == BILLING_YEARS)
monthly_readings_job = stage_jobs[_month_stage.index]
billing_years_job = stage_jobs[_year_stage.index]


def partition_requests(keys: list[str], run_key: str, job_name: str) -> list[RunRequest]:
    """One run over ``keys``: the partition, or the range from the first to the last."""
    keys = sorted(keys)
    if not keys:
        return []
    if len(keys) == 1:
        return [RunRequest(run_key=run_key, partition_key=keys[0], job_name=job_name)]
    return [RunRequest(run_key=run_key, job_name=job_name, tags={RANGE_START: keys[0], RANGE_END: keys[-1]})]


@asset_sensor(
    asset_key=AssetKey("reading_months"),
    job=monthly_readings_job,
    name="reading_months_sensor",
    default_status=DefaultSensorStatus.STOPPED,
    description="Judges slugs again in the months of readings that new files touched: one run over "
    "those months, once the files are loaded.",
)
def reading_months_sensor(context: SensorEvaluationContext, asset_event: EventLogEntry):
    months = asset_event.asset_materialization.metadata["months_touched"].value
    requests = partition_requests(list(months), f"months {asset_event.run_id}", monthly_readings_job.name)
    return requests or SkipReason("the new files touched no month of readings")


@asset_sensor(
    asset_key=AssetKey("billing_years"),
    job=billing_years_job,
    name="billing_years_sensor",
    default_status=DefaultSensorStatus.STOPPED,
    description="Bills again the years whose rates, budget or parcels new files changed.",
)
def billing_years_sensor(context: SensorEvaluationContext, asset_event: EventLogEntry):
    years = asset_event.asset_materialization.metadata["years_touched"].value
    requests = [
        RunRequest(
            run_key=f"billing {asset_event.run_id} {y}", partition_key=y, job_name=billing_years_job.name
        )
        for y in years
    ]
    return requests or SkipReason("the new files changed no billing year")


# What reads the partitioned assets and has none itself: the pages, notices and letters of the stages
# after them. A run of some months or billing years (the two sensors above, a backfill from the UI)
# leaves them as they were; this job and its sensor bring them up to date.
_partitioned = AssetSelection.assets(*PARTITIONED)
AFTER_PARTITIONS = _partitioned.downstream() - _partitioned
refresh_after_partitions_job = define_asset_job(
    "refresh_after_partitions",
    selection=AFTER_PARTITIONS,
    description="The pages, notices and letters that read slugs or bills, after a run of some months "
    "or billing years.",
)


@sensor(
    name="refresh_after_partitions_sensor",
    job=refresh_after_partitions_job,
    minimum_interval_seconds=60,
    default_status=DefaultSensorStatus.STOPPED,
    description="Refreshes the pages, notices and letters once months of readings or billing years "
    "have been judged again.",
)
def refresh_after_partitions_sensor(context: SensorEvaluationContext):
    latest = 0
    for key in PARTITIONED:
        records = context.instance.fetch_materializations(key, limit=1).records
        if records:
            latest = max(latest, records[0].storage_id)
    if latest <= int(context.cursor or 0):
        return SkipReason("no month or billing year was judged again since the last refresh")
    context.update_cursor(str(latest))
    return RunRequest(run_key=f"refresh after {latest}")


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
    rules folder and the town from ``settings``' rules_dir and town, else OUTFALL_RULES_DIR and
    OUTFALL_TOWN)."""
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
        jobs=[
            *stage_jobs,
            daily_compliance_job,
            stormwater_review_job,
            annual_billing_job,
            refresh_after_partitions_job,
        ]
        + [job for job, _ in _sensor_pairs],
        schedules=build_schedules(_timezone(resources)),
        sensors=[s for _, s in _sensor_pairs]
        + [reading_months_sensor, billing_years_sensor, refresh_after_partitions_sensor],
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
