"""Runs of assets partitioned in different ways, in the order their dependencies give.

A Dagster run targets one partitions definition, so a run of everything is a few runs, one after
the other: the assets without partitions that the partitioned ones read (ingestion), then the
readings by month, then billing by year, then what reads them (pages, letters). Where there is a
daemon, Dagster's backfill orders such runs itself (the UI's Materialize all; `outfall run` with
DAGSTER_HOME and the web server launches one, pipelines.queue). In one process Dagster has no public
way to run a backfill, so ``plan_stages`` finds the stages from the assets' public specs (their
partitions definitions and what they read: any number of definitions, in any order the graph allows)
and ``run_stages`` runs them; which partitions a stage runs is the caller's (``pipelines.runs``: what
changed). A stage with several partitions runs them as one run over the range (the assets'
BackfillPolicy.single_run()).
"""

from __future__ import annotations

import graphlib
import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from dagster import (
    AssetCheckResult,
    AssetChecksDefinition,
    AssetKey,
    AssetsDefinition,
    DagsterEventType,
    DagsterInstance,
    DynamicPartitionsDefinition,
    PartitionsDefinition,
    multi_asset_check,
)

from assets.common import BILLING_YEARS, CHECK_FUNCTIONS, READING_MONTHS, data_partitions, held_open
from outfall.rules import Rules
from outfall.warehouse import sql

RANGE_START, RANGE_END = "dagster/asset_partition_range_start", "dagster/asset_partition_range_end"


@dataclass(frozen=True)
class Stage:
    """The assets of one run: all with the same partitions definition (None: not partitioned)."""

    index: int
    partitions_def: PartitionsDefinition | None
    keys: tuple[AssetKey, ...]

    @property
    def label(self) -> str:
        return partitions_label(self.partitions_def)

    @property
    def job_name(self) -> str:
        return f"everything_{self.index + 1}_{self.label}"


def partitions_label(partitions_def: PartitionsDefinition | None) -> str:
    if partitions_def is None:
        return "unpartitioned"
    if isinstance(partitions_def, DynamicPartitionsDefinition):
        return f"by_{partitions_def.name}"
    if partitions_def == READING_MONTHS:
        return "by_month"
    return "partitioned"


def asset_graph(assets_defs: Iterable[AssetsDefinition]) -> tuple[dict, dict]:
    """(partitions definition, parents) of every asset key the definitions produce."""
    partitions, parents = {}, {}
    for assets_def in assets_defs:
        for spec in assets_def.specs:
            partitions[spec.key] = spec.partitions_def
            parents[spec.key] = {dep.asset_key for dep in spec.deps}
    return partitions, {k: {p for p in ps if p in partitions and p != k} for k, ps in parents.items()}


def plan_stages(assets_defs: Iterable[AssetsDefinition]) -> list[Stage]:
    """The runs of these assets in order: each asset in the first run, at or after its parents', of its
    partitions definition; a run is added when there is none."""
    partitions, parents = asset_graph(assets_defs)
    order = graphlib.TopologicalSorter(parents).static_order()
    stage_defs: list[PartitionsDefinition | None] = []
    members: list[list[AssetKey]] = []
    where: dict[AssetKey, int] = {}
    for key in sorted(order, key=_topo_rank(parents)):
        lowest = max((where[p] for p in parents[key]), default=0)
        found = next((i for i in range(lowest, len(stage_defs)) if stage_defs[i] == partitions[key]), None)
        if found is None:
            stage_defs.append(partitions[key])
            members.append([])
            found = len(stage_defs) - 1
        members[found].append(key)
        where[key] = found
    return [
        Stage(i, d, tuple(sorted(m, key=lambda k: k.to_user_string())))
        for i, (d, m) in enumerate(zip(stage_defs, members))
    ]


def _topo_rank(parents: dict) -> Callable:
    """Sort key: depth in the graph, then name (a stable order whatever the dict order)."""
    depth: dict = {}

    def of(key) -> int:
        if key not in depth:
            depth[key] = 1 + max((of(p) for p in parents[key]), default=-1)
        return depth[key]

    return lambda key: (of(key), key.to_user_string())


def downstream(keys: Iterable[AssetKey], parents: dict) -> set[AssetKey]:
    """``keys`` and every asset that reads them, directly or not."""
    children: dict = {}
    for child, ps in parents.items():
        for p in ps:
            children.setdefault(p, set()).add(child)
    found, todo = set(keys), list(keys)
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


# ---------------------------------------------------------------------------
# which partitions


MONTH = re.compile(r"^(\d{4})-(\d{2})$")
YEAR = re.compile(r"^\d{4}$")


def partition_key_for(partitions_def: PartitionsDefinition, asked: str) -> str | None:
    """The key of ``partitions_def`` that ``asked`` names (``2026-03`` a month, ``2026`` a year), or None."""
    if partitions_def == READING_MONTHS and MONTH.match(asked):
        return f"{asked}-01"
    if partitions_def == BILLING_YEARS and YEAR.match(asked):
        return asked
    return None


def keys_in_order(partitions_def: PartitionsDefinition, instance: DagsterInstance) -> list[str]:
    if isinstance(partitions_def, DynamicPartitionsDefinition):
        return list(instance.get_dynamic_partitions(partitions_def.name))
    return list(partitions_def.get_partition_keys(dynamic_partitions_store=instance))


def run_tags(
    partitions_def: PartitionsDefinition, wanted: list[str], instance: DagsterInstance
) -> dict | None:
    """The tags of one run over ``wanted`` (a key, or the range from the first to the last of them in
    the definition's order); None when none of them is a partition."""
    if isinstance(partitions_def, DynamicPartitionsDefinition):
        known = set(instance.get_dynamic_partitions(partitions_def.name))
        missing = sorted(set(wanted) - known)
        if missing:
            instance.add_dynamic_partitions(partitions_def.name, missing)
    ordered = keys_in_order(partitions_def, instance)
    at = sorted(ordered.index(k) for k in set(wanted) if k in ordered)
    if not at:
        return None
    if len(at) == 1:
        return {"dagster/partition": ordered[at[0]]}
    return {RANGE_START: ordered[at[0]], RANGE_END: ordered[at[-1]]}


def partitions_with_data(con, partitions_def: PartitionsDefinition, rules: Rules | None = None) -> list[str]:
    """The partitions a run of everything covers in the warehouse (``con``, reading the inputs as of the
    run's day): the billing years that have rates (by the town's ``rules``); the months that have readings
    (their first local days), and those whose slugs an earlier run kept, judged again (a run as of a day
    before their readings finds none)."""
    if partitions_def not in (BILLING_YEARS, READING_MONTHS):
        return []
    found = data_partitions(con, rules)[partitions_def.name]
    if partitions_def == READING_MONTHS:
        kept = [r[0].isoformat() for r in con.execute(sql("select_slug_months")).fetchall()]
        found = sorted({*found, *kept})
    return found


# ---------------------------------------------------------------------------
# running the stages


@dataclass
class StagedRun:
    """The results of the runs of a staged run, in order."""

    results: list = None
    skipped: set = None  # assets not run: they read one that failed

    @property
    def success(self) -> bool:
        return all(r.success for r in self.results) and not self.skipped

    @property
    def all_events(self) -> list:
        return [e for r in self.results for e in r.all_events]

    def get_asset_check_evaluations(self) -> list:
        return [e for r in self.results for e in r.get_asset_check_evaluations()]

    def get_step_failure_events(self) -> list:
        return [e for r in self.results for e in r.get_step_failure_events()]

    def get_asset_materialization_events(self) -> list:
        return [e for r in self.results for e in r.get_asset_materialization_events()]

    def asset_materializations_for_node(self, node_name: str) -> list:
        found = []
        for r in self.results:
            try:
                found += r.asset_materializations_for_node(node_name)
            except Exception:  # noqa: BLE001 - the node is not in this run
                continue
        return found


def run_stages(
    stages: list[Stage],
    parents: dict,
    run_one: Callable[[Stage, list[AssetKey], dict], Any],
    wanted: Callable[[Stage], list[str] | None],
    instance: DagsterInstance,
    only: set[AssetKey] | None = None,
) -> StagedRun:
    """Run each stage with ``run_one(stage, keys, tags)``, its partitions those ``wanted(stage)`` names
    (called when the stage starts, so after the stages before it loaded their data). ``only``: run just
    these assets. An asset that reads one that failed is not run (as within one Dagster run)."""
    staged = StagedRun(results=[], skipped=set())
    failed: set[AssetKey] = set()
    for stage in stages:
        keys = [k for k in stage.keys if (only is None or k in only)]
        blocked = downstream(failed, parents) if failed else set()
        staged.skipped |= blocked & set(keys)
        keys = [k for k in keys if k not in blocked]
        if not keys:
            continue
        tags: dict = {}
        if stage.partitions_def is not None:
            tags = run_tags(stage.partitions_def, wanted(stage) or [], instance)
            if tags is None:
                continue  # no partition holds data: nothing to run
        result = run_one(stage, keys, tags)
        staged.results.append(result)
        if not result.success:
            done = {
                e.asset_key
                for e in result.all_events
                if e.event_type == DagsterEventType.ASSET_MATERIALIZATION
            }
            failed |= set(keys) - done
    return staged


# ---------------------------------------------------------------------------
# the checks written beside their assets, a step per stage


def check_steps(checks_defs: Iterable[AssetChecksDefinition], stages: list[Stage]) -> list:
    """The checks written beside their tables (``assets.common.table_check``) run as one step per stage of
    their assets (a subsettable ``multi_asset_check`` calling each check's function: each keeps its own
    result and can be run alone), the others as they are. Each of the twenty was a Dagster step of its
    own, bookkeeping that cost as much as a table."""
    stage_of = {key: s for s in stages for key in s.keys}
    written = set(CHECK_FUNCTIONS)
    grouped: dict[int, list] = {}
    kept = []
    for checks_def in checks_defs:
        specs = list(checks_def.check_specs)
        merged = len(specs) == 1 and specs[0].key in written
        stage = stage_of.get(specs[0].asset_key) if merged else None
        if stage is None:
            kept.append(checks_def)
        else:
            grouped.setdefault(stage.index, []).append(checks_def)
    return kept + [
        _combined(f"checks_{stages[i].index + 1}_{stages[i].label}", defs) for i, defs in grouped.items()
    ]


def _combined(name: str, checks_defs: list[AssetChecksDefinition]):
    calls = {}
    for checks_def in checks_defs:
        key = next(iter(checks_def.check_keys))
        fn = CHECK_FUNCTIONS[key]  # the function written beside its table (assets.common.table_check)
        calls[key] = (fn, list(inspect.signature(fn).parameters))
    resource_keys = {p for _, params in calls.values() for p in params if p != "context"} | {"duckdb"}

    @multi_asset_check(
        specs=[spec for c in checks_defs for spec in c.check_specs],
        name=name,
        can_subset=True,
        required_resource_keys=resource_keys,
        description="The checks of this stage's tables, one step (each reports its own result).",
    )
    def _step(context):  # no annotation: this module has `from __future__ import annotations`
        results = []
        with held_open(context.resources.duckdb):  # the checks share one open warehouse, for this step
            for key, (fn, params) in calls.items():
                if key in context.selected_asset_check_keys:
                    kwargs = {
                        p: (context if p == "context" else getattr(context.resources, p)) for p in params
                    }
                    results.append((key, fn(**kwargs)))
        for key, result in results:
            yield AssetCheckResult(
                asset_key=key.asset_key,
                check_name=key.name,
                passed=result.passed,
                severity=result.severity,
                metadata=result.metadata,
                description=result.description,
            )

    return _step
