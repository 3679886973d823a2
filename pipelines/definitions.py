"""The one Definitions of Outfall: `dg dev` (or `dagster dev -m pipelines.definitions`).

Assets and asset checks are collected from the ``assets`` package. The DuckDB warehouse path comes from
OUTFALL_WAREHOUSE (default ``warehouse/outfall.duckdb`` in the repository), the input folder from
OUTFALL_DATA_DIR (default ``demo_output/data``, where ``outfall demo`` writes the sample town) and the
day judged by from OUTFALL_AS_OF (default: today in the town's time zone).

When things run, under the daemon (docs/operating.md):
- the sensor ``input_files_sensor`` (running by default) loads the input folders when files land or
  change (the job ``load_inputs``: the one ingestion step), which registers the months that have
  readings and the years that have rates as partitions;
- every other asset has Dagster's declarative automation (``AutomationCondition.eager()``: when what it
  reads was updated, and a partition as soon as it exists), and the ingestion step a daily cron; the
  sensor ``outfall_automation`` evaluates them once a town switches it on.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

from dagster import (
    AssetDep,
    AssetKey,
    AssetSelection,
    AutomationCondition,
    AutomationConditionSensorDefinition,
    BetaWarning,
    DagsterInstance,
    DefaultSensorStatus,
    Definitions,
    RunRequest,
    SensorEvaluationContext,
    SensorResult,
    SkipReason,
    define_asset_job,
    in_process_executor,
    load_asset_checks_from_package_module,
    load_assets_from_package_module,
    sensor,
)

import assets as assets_package
from assets.common import BILLING_YEARS, READING_MONTHS
from assets.ingest import PARTITIONS_METADATA, input_folders
from outfall.ingest.files import list_input_files
from outfall.ingest.registry import all_datasets
from outfall.resources import (
    WAREHOUSE_VARIABLE,
    RulesResource,
    Warehouse,
    default_data_dir,
    default_warehouse,
    from_environment,
    run_resources,
    value,
)
from outfall.rules.town import default_rules_dir
from outfall.versions import QUARANTINE, RUN_SETTINGS, Node, code_version, digest
from pipelines.operator import with_operator_metadata
from pipelines.stages import Stage, asset_graph, check_steps, plan_stages

CODE_LOCATION = "outfall"  # the one name: pyproject.toml's [tool.dg] and [tool.dagster], the Makefile, docs
DAILY_CRON = "0 6 * * *"  # the ingestion step's daily run under the automation: "overdue" moves with the day
DAILY_LABEL = "daily at 06:00"
EAGER_LABEL = "eager, or a new code version"


def _load_assets() -> tuple[list, list]:
    """Every asset and asset check of the ``assets`` package, as the code location loads them.
    `backfill_policy=BackfillPolicy.single_run()` (a range of months or billing years is one run, one pass
    over the readings) is the one beta parameter the assets use; Dagster warns of it once per asset as
    their modules are imported. It is chosen knowingly (docs/scaling.md), so that warning alone is left
    out, here only: importing this module changes no process-wide setting."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Parameter `backfill_policy`", category=BetaWarning)
        return (
            load_assets_from_package_module(assets_package),
            load_asset_checks_from_package_module(assets_package),
        )


_loaded, _checks = _load_assets()


INGEST_KEYS = frozenset(input_folders.keys)
RUN_SETTINGS_KEY = AssetKey(RUN_SETTINGS)


def automation_condition(key: AssetKey, timezone: str) -> AutomationCondition:
    """The ingestion step (which reads only files) once a day at 06:00 in the town's time zone: the day
    judged by moves; every other asset when what it reads was updated, a partition as soon as it exists,
    and when its code changed (a new code version)."""
    if key in INGEST_KEYS:
        return (
            AutomationCondition.cron_tick_passed(DAILY_CRON, timezone) & ~AutomationCondition.in_progress()
        ).with_label(DAILY_LABEL)
    return (
        AutomationCondition.in_latest_time_window()
        & (
            AutomationCondition.newly_missing()
            | AutomationCondition.any_deps_updated()
            | AutomationCondition.code_version_changed()
        ).since_last_handled()
        & ~AutomationCondition.any_deps_missing()
        & ~AutomationCondition.any_deps_in_progress()
        & ~AutomationCondition.in_progress()
    ).with_label(EAGER_LABEL)


def _versioned(assets_def, timezone: str, code: str):
    """``assets_def`` with its automation condition and code version; what reads the run's settings (the
    day judged by, the folders written to: the ``settings`` resource) reads the asset ``outfall_run``, so
    that a new day is a new version of what it judges."""
    reads_settings = (
        "settings" in assets_def.required_resource_keys and not set(assets_def.keys) & INGEST_KEYS
    )

    def spec(s):
        deps = [*s.deps, AssetDep(RUN_SETTINGS_KEY)] if reads_settings else list(s.deps)
        return s.replace_attributes(
            automation_condition=automation_condition(s.key, timezone), code_version=code, deps=deps
        )

    return assets_def.map_asset_specs(spec)


def build_assets(timezone: str, described: bool = True, code: str | None = None) -> list:
    """Every asset, with its owners, tags, table metadata (pipelines.operator), automation condition and
    code version (``outfall.versions.code_version``: default the project's with the environment's rules)."""
    code = code or code_version(default_rules_dir())
    return [_versioned(with_operator_metadata(a) if described else a, timezone, code) for a in _loaded]


# The graph (what reads what, the outfall_run dependencies included), for planning runs.
all_assets = build_assets("UTC", described=False, code="graph")
# A Dagster run targets one partitions definition, so every asset is a few runs in order (the stages,
# pipelines.stages): the inputs, the readings by month, billing by year, then what reads them.
STAGES: list[Stage] = plan_stages(all_assets)
PARTITIONS, PARENTS = asset_graph(all_assets)
# The same graph for outfall.versions: each asset, what it reads and its partitions definition's name.
NODES = {
    k.to_user_string(): Node(
        k.to_user_string(),
        tuple(sorted(p.to_user_string() for p in PARENTS[k])),
        PARTITIONS[k].name if PARTITIONS[k] is not None else None,
    )
    for k in PARTITIONS
}
# The keys a step makes together whatever is asked of it (a multi-asset that cannot make part of them).
TOGETHER = [frozenset(a.keys) for a in all_assets if len(a.keys) > 1 and not a.can_subset]
# The checks written beside their assets, run a step per stage instead of a step each.
all_checks = [c for c in _checks if c.node_def.name != "input_checks"]
check_defs = check_steps(all_checks, STAGES)

load_inputs_job = define_asset_job(
    "load_inputs",
    selection=AssetSelection.assets(*INGEST_KEYS),
    description="Loads the input folders' new files and checks the input tables (the ingestion step); "
    "reports the months that have readings and the years that have rates, which the input sensor "
    "registers as partitions.",
)


def folder_fingerprint(folder: Path) -> str:
    """Names, sizes and modification times of a folder's input files."""
    parts = []
    for path in list_input_files(folder):
        stat = path.stat()
        parts.append(f"{path.relative_to(folder).as_posix()}:{stat.st_size}:{stat.st_mtime_ns}")
    return "|".join(parts)


def data_fingerprint(data_dir: Path) -> str:
    """The fingerprints of every input folder under ``data_dir``, one line each."""
    return "\n".join(f"{name}={folder_fingerprint(data_dir / name)}" for name in sorted(all_datasets()))


def partition_requests(instance: DagsterInstance) -> list:
    """The partitions the latest ingestion reported (the quarantine's metadata: the months that have
    readings, the years that have rates) that ``instance`` lacks, as Dagster's requests to add them."""
    event = instance.get_latest_materialization_event(AssetKey(QUARANTINE))
    metadata = event.asset_materialization.metadata if event and event.asset_materialization else {}
    requests = []
    for definition in (READING_MONTHS, BILLING_YEARS):
        given = metadata.get(f"{PARTITIONS_METADATA}{definition.name}")
        known = set(instance.get_dynamic_partitions(definition.name))
        new = [k for k in (given.value if given is not None else []) if k not in known]
        if new:
            requests.append(definition.build_add_request(new))
    return requests


@sensor(
    name="input_files_sensor",
    job=load_inputs_job,
    minimum_interval_seconds=30,
    default_status=DefaultSensorStatus.RUNNING,
    description="Loads the input folders when files land or change in any of them (one run of the "
    "ingestion step), and registers the months and years the loaded files give as partitions; the "
    "automation brings what reads them up to date.",
)
def input_files_sensor(context: SensorEvaluationContext):
    data_dir = Path(default_data_dir())
    fingerprint = data_fingerprint(data_dir)
    partitions = partition_requests(context.instance)
    if fingerprint == context.cursor or not any(line.split("=", 1)[1] for line in fingerprint.splitlines()):
        if partitions:
            return SensorResult(dynamic_partitions_requests=partitions)
        return SkipReason(f"no new or changed files under {data_dir}")
    changed = _changed_folders(context.cursor or "", fingerprint)
    request = RunRequest(
        run_key=f"inputs {digest(fingerprint)}", tags={"outfall/folders": ",".join(changed)[:200]}
    )
    return SensorResult(run_requests=[request], dynamic_partitions_requests=partitions, cursor=fingerprint)


def _changed_folders(before: str, after: str) -> list[str]:
    old = dict(line.split("=", 1) for line in before.splitlines() if "=" in line)
    new = (line.split("=", 1) for line in after.splitlines())
    return [name for name, value in new if old.get(name, "") != value]


def automation_sensor() -> AutomationConditionSensorDefinition:
    return AutomationConditionSensorDefinition(
        "outfall_automation",
        target=AssetSelection.all(),
        default_status=DefaultSensorStatus.STOPPED,
        minimum_interval_seconds=30,
        description="Dagster's declarative automation of every asset: what reads an updated table is run "
        "again, a new month of readings or billing year as soon as it is registered, and the input "
        "folders once a day at 06:00 (the day judged by moves). Switch it on to run the town every day.",
    )


def run_instance() -> DagsterInstance:
    """The Dagster instance of one `outfall run`: DAGSTER_HOME's when it is set (the UI then shows the
    command's runs, materializations, check results and partitions), else an ephemeral one."""
    if os.environ.get("DAGSTER_HOME"):
        return DagsterInstance.get()
    return DagsterInstance.ephemeral()


def build_resources(warehouse: str | None = None, **settings) -> dict:
    """The resources of a run: the DuckDB warehouse file, the run settings and the rules of the run. What
    is not given comes from the environment where it is set, as Dagster's EnvVar (read when a run starts:
    the daemon's and the UI's runs), else the default (the demo's folders, the project's rules)."""
    database = warehouse or from_environment({"database": WAREHOUSE_VARIABLE}).get("database")
    return {
        "duckdb": Warehouse(database=database or str(Path(default_warehouse()))),
        **run_resources(**settings),
    }


def build_definitions(
    resources: dict | None = None, described: bool = True, loggers: dict | None = None
) -> Definitions:
    """The Definitions, bound to ``resources`` (default: the environment's). `dg dev` loads ``defs``
    below; `outfall run` builds the same Definitions with the folders it was given (``described``
    False: without the owners, tags and table schemas only the UI shows, 0.15 s a run; ``loggers``: its
    own, which hear every event of its runs)."""
    resources = resources if resources is not None else build_resources()
    rules = resources.get("rules")
    code = code_version(value(rules.rules_dir) if isinstance(rules, RulesResource) else default_rules_dir())
    return Definitions(
        assets=build_assets(_timezone(resources), described, code),
        asset_checks=check_defs,
        jobs=[load_inputs_job],
        sensors=[input_files_sensor, automation_sensor()],
        resources=resources,
        # One process: DuckDB allows a single writing process per file, and GX is
        # imported once instead of once per step.
        executor=in_process_executor,
        loggers=loggers,
    )


def _timezone(resources: dict | None) -> str:
    """The town's time zone: the rules resource's (the daily cron runs at the town's hours)."""
    rules = (resources or {}).get("rules")
    return (rules if isinstance(rules, RulesResource) else RulesResource()).timezone()


defs = build_definitions()
