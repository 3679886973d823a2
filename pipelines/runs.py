"""`outfall run`: what a run makes, and how.

1. **Nothing new.** The fingerprint of the run (its data folder's files by name, size and time, the code
   version, the day judged by, the folders: ``outfall.versions.run_fingerprint``) is the one the last
   run that left every table current recorded: nothing to make. Dagster is not even imported.
2. **The inputs.** Otherwise the ingestion step runs first, alone: it loads the files it has not loaded
   and reports (and records) each input folder whose files changed, the quarantine and the run's
   settings when they changed.
3. **What changed.** Every other table (and partition) whose version would change (``outfall.versions``:
   made from other inputs, code or settings, or never made) is made again, with what reads it; nothing
   else is.
4. **The runs.** A Dagster run holds one partitions definition: the tables to make are run stage by stage
   (``pipelines.stages``), a stage's partitions as one run over their range.
5. **The record.** The versions of what was made are recorded in the warehouse; a run that leaves every
   table current records its fingerprint (1).

``partition`` (a month ``2026-03`` or a billing year ``2026``) makes that partition again, whether or not
it changed, and what reads it; ``year`` bills that year only.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from outfall import gx_worker, pdf, progress
from outfall.runlog import log_failures, log_step, run_logger, trace_text

FULL_PASS_EVERY = 1000  # the collector's full pass during a run: after this many of its middle ones
# Who hears each event of the command's runs (``run_events``): the progress line, the run log, and the
# Chromium that the letters will need.
LISTENERS: list[Callable] = []


def run_events():
    """A Dagster logger (``@logger``) of the command's runs: every event's log record (its
    ``dagster_event``) to each of ``LISTENERS``, as Dagster hands it to any logger of a run."""
    import logging

    from dagster import logger

    class Listeners(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            for listen in LISTENERS:
                listen(record)

    @logger(description="Every event of `outfall run`'s runs to its progress line and run log.")
    def outfall_events(init_context):
        found = logging.getLogger("outfall.run_events")
        found.setLevel(logging.DEBUG)
        found.propagate = False
        if not found.handlers:
            found.addHandler(Listeners())
        return found

    return outfall_events


@dataclass
class RunOutcome:
    ok: bool
    materialized: list[str] = field(default_factory=list)
    failures: list[tuple[str, object]] = field(default_factory=list)  # (asset or step, error info)
    checks_failed: list[str] = field(default_factory=list)
    checks_not_run: list[tuple[str, str]] = field(
        default_factory=list
    )  # (asset:check, the error's first line)
    seconds: float = 0.0
    run_error: object = None  # why the run itself failed, when it says (an interruption before any step)
    nothing_new: bool = False  # the last run's fingerprint: no Dagster run at all
    in_use: str = ""  # another writer held the warehouse: why, in one line (exit 2)

    def in_use_line(self) -> str:
        """Why the warehouse could not be written, when another writer held it (a step's failure or the
        command's own reading), else ''."""
        from outfall.runlog import explain

        if self.in_use:
            return self.in_use
        found = [explain(error).why for _, error in self.failures]
        return next((why for why in found if "is in use by another writer" in why), "")


def _warm_for_letters(entry) -> None:
    """When the first step whose letters are printed starts, Chromium starts in the background
    (outfall.pdf.warm), so that it is up when the letters are (its start is slow)."""
    from assets.printing import LETTER_SOURCES  # an asset module (Dagster): imported once a run is under way

    event = getattr(entry, "dagster_event", None)
    if event is not None and event.is_step_start and event.step_key in LETTER_SOURCES:
        pdf.warm()


@contextlib.contextmanager
def _letters_warmed() -> Iterator[None]:
    """A Chromium session started for the letters is closed when the run ends, used or not."""
    try:
        yield
    finally:
        pdf.cool()


@contextlib.contextmanager
def _startup_objects_set_apart() -> Iterator[Callable[[], None]]:
    """The objects a run makes before its first asset (the imported modules, Dagster's definitions:
    about 280,000 the collector tracks) live as long as the run. Without this, each of the
    collector's full passes traverses them again, every pass of every run. The collector is off
    while they are made; the function this yields sets them apart (gc.freeze) and turns it on
    again. When the run ends they are collectable as before (gc.unfreeze), and the collector is as
    the caller had it: a process that runs again, as the tests do, keeps nothing longer than it
    would have."""
    was_enabled = gc.isenabled()
    gc.disable()
    thresholds = gc.get_threshold()

    def set_apart() -> None:
        gc.freeze()
        gc.set_threshold(thresholds[0], thresholds[1], FULL_PASS_EVERY)
        gc.enable()

    try:
        yield set_apart
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        if was_enabled:
            gc.enable()
        else:
            gc.disable()


# ---------------------------------------------------------------------------
# 1. nothing new


def fingerprint_of(
    data_dir: Path, warehouse: Path, as_of: str, year: int, dashboards: str, rules_dir: str
) -> str:
    from outfall.rules.town import default_town
    from outfall.versions import run_fingerprint

    settings = {"as_of": as_of, "year": year, "dashboards": dashboards, "town": default_town()}
    return run_fingerprint(data_dir, rules_dir, warehouse=str(warehouse), **settings)


def nothing_new(warehouse: Path, fingerprint: str) -> bool:
    """Whether the last run that left every table current had this fingerprint."""
    import duckdb

    from outfall.versions import last_run_fingerprint

    if not warehouse.exists():
        return False
    try:
        con = duckdb.connect(str(warehouse), read_only=True)
    except duckdb.Error:
        return False
    try:
        return last_run_fingerprint(con) == fingerprint
    except duckdb.Error:  # a warehouse made before the record was kept: no fingerprint yet
        return False
    finally:
        con.close()


# ---------------------------------------------------------------------------
# 2-5. the runs


def run_pipeline(
    data_dir: Path,
    warehouse: Path,
    as_of: str = "",
    year: int = 0,
    dashboards: str = "",
    quiet: bool = False,
    partition: str = "",
    rules_dir: str = "",
    queued=None,
) -> RunOutcome:
    """Make what changed (the module's docstring), in process, into ``warehouse``; ``as_of`` is the day
    judged by (YYYY-MM-DD, already today's when the command was given none). ``queued``: the web server
    of DAGSTER_HOME's instance (``pipelines.queue.server_of``), which then runs them in its queue."""
    if queued is not None:
        return run_queued(queued, data_dir, warehouse, as_of, year, dashboards, quiet, partition, rules_dir)
    started = time.perf_counter()
    fingerprint = (
        None if partition else fingerprint_of(data_dir, warehouse, as_of, year, dashboards, rules_dir)
    )
    if fingerprint is not None and nothing_new(warehouse, fingerprint):
        run_logger().info("run: nothing new in %s since the last run, as of %s", data_dir, as_of)
        return RunOutcome(ok=True, nothing_new=True, seconds=time.perf_counter() - started)
    with _startup_objects_set_apart() as set_apart:
        warnings.filterwarnings("ignore")
        inputs = gx_worker.worth_starting(data_dir)
        with gx_worker.background(), _letters_warmed():
            if inputs:
                gx_worker.start()  # the worker imports Great Expectations while this process goes on
            # Dagster, every asset and DuckDB: imported here, while the collector is off (see above).
            from outfall.resources import WarehouseInUse
            from pipelines.definitions import run_instance

            _log_settings(data_dir, warehouse, as_of, year, dashboards)
            resources = _resources(data_dir, warehouse, as_of, year, dashboards, rules_dir)
            asset_job = _asset_job(resources)
            set_apart()
            with run_instance() as instance, progress.shown(quiet):
                LISTENERS[:] = [progress.listen, log_step, *([_warm_for_letters] if inputs else [])]
                try:
                    result = _run(
                        resources, _runner(asset_job, instance), instance, year, partition, fingerprint
                    )
                except WarehouseInUse as exc:  # the command's own reading or recording, between runs
                    return RunOutcome(ok=False, in_use=str(exc), seconds=time.perf_counter() - started)
    return outcome_of(result, time.perf_counter() - started)


def _log_settings(data_dir: Path, warehouse: Path, as_of: str, year: int, dashboards: str) -> None:
    run_logger().info(
        "run: data %s, warehouse %s, as of %s, year %s, pages %s",
        data_dir,
        warehouse,
        as_of or "today",
        year or "every year with rates",
        dashboards or "beside the warehouse",
    )


def _resources(data_dir: Path, warehouse: Path, as_of: str, year: int, dashboards: str, rules_dir: str):
    """The run's resources: its warehouse, folders, day, billing year and town's rules."""
    from outfall.rules.town import default_town
    from pipelines.definitions import build_resources

    return build_resources(
        str(warehouse),
        data_dir=str(data_dir),
        as_of=as_of,
        year=year,
        dashboards_dir=dashboards,
        rules_dir=rules_dir,
        town=default_town(),
    )


def _asset_job(resources):
    """The project's Definitions, bound to this run's folders; its implicit asset job, which runs each
    stage as the UI's "Materialize" does."""
    from dagster import colored_console_logger

    from pipelines.definitions import build_definitions

    defs = build_definitions(
        resources,
        described=False,
        loggers={"console": colored_console_logger, "events": run_events()},
    )
    return defs.resolve_implicit_global_asset_job_def()


def _runner(asset_job, instance) -> Callable:
    """A stage's run: its assets (and partitions, by ``tags``) made in process in ``instance``."""

    def run_one(stage, keys, tags):
        return asset_job.execute_in_process(
            instance=instance,
            raise_on_error=False,
            asset_selection=keys,
            # Nothing on the terminal from Dagster: failures are reported in plain words by
            # the command, their traces go to the run log (outfall.runlog); every event to
            # the progress line and the run log's step lines (LISTENERS).
            run_config={"loggers": {"console": {"config": {"log_level": "CRITICAL"}}, "events": {}}},
            tags={"outfall/command": "run", **tags},
        )

    return run_one


def _run(resources, run_one, instance, year: int, partition: str, fingerprint: str | None):
    """The inputs, then what changed, stage by stage; the versions of what was made recorded."""
    from assets.common import warehouse as open_warehouse
    from assets.ingest import CHANGED_CHECKS_TAG
    from outfall.versions import (
        UNPARTITIONED,
        all_current,
        current_after,
        expected_versions,
        plan,
        record_versions,
        set_last_run,
    )
    from outfall.warehouse import transaction
    from pipelines.definitions import INGEST_KEYS, NODES, PARENTS, STAGES
    from pipelines.stages import StagedRun, run_stages

    # The inputs alone; the checks of the folders whose files changed (assets.ingest.CHANGED_CHECKS_TAG).
    first = run_one(
        STAGES[0], sorted(INGEST_KEYS, key=lambda k: k.to_user_string()), {CHANGED_CHECKS_TAG: "1"}
    )
    staged = StagedRun(results=[first], skipped=set())
    if not first.success:
        return staged
    definitions = {s.partitions_def.name: s.partitions_def for s in STAGES if s.partitions_def is not None}
    partitions, recorded = _partitions_and_versions(resources, definitions, instance)
    allowed, forced = asked_for(definitions, partitions, year, partition)
    code = _code_version(resources)
    sources = [k.to_user_string() for k in INGEST_KEYS]
    expected = expected_versions(NODES, recorded, partitions, code, sources)
    todo = to_make(plan(NODES, recorded, expected, partitions, forced), sources, allowed)
    run_logger().info("run: %d tables and partitions to make", len(todo))
    from dagster import AssetKey

    only = {AssetKey(a) for a, _ in todo}

    def wanted(stage) -> list[str]:
        return sorted({p for a, p in todo if AssetKey(a) in stage.keys and p != UNPARTITIONED})

    stages = [s for s in STAGES if s.index > 0 or set(s.keys) - INGEST_KEYS]
    rest = run_stages(stages, PARENTS, run_one, wanted, instance, only=only - INGEST_KEYS)
    if not rest.success:
        _pages_after_failure(STAGES, rest, run_one, Path(resources["duckdb"].database))
    staged.results += rest.results
    staged.skipped |= rest.skipped
    made = {
        (e.asset_key.to_user_string(), e.partition or UNPARTITIONED)
        for e in rest.get_asset_materialization_events()
    }
    new = current_after(NODES, recorded, expected, made, partitions)
    with open_warehouse(resources["duckdb"]) as con, transaction(con):
        record_versions(con, new)
        done = fingerprint is not None and staged.success and all_current({**recorded, **new}, expected)
        set_last_run(con, fingerprint if done else None)
    return staged


def _partitions_and_versions(resources, definitions: dict, instance) -> tuple[dict, dict]:
    """The partitions that hold data on the run's day (a month of readings after it has none), read as of
    it and registered in ``instance`` as the input sensor registers them in the daemon's; the versions
    recorded in the warehouse."""
    from assets.common import warehouse as open_warehouse
    from outfall.versions import recorded_versions
    from pipelines.stages import partitions_with_data

    rules = resources["rules"].town_rules()
    with open_warehouse(resources["duckdb"], as_of=resources["settings"].as_of_date()) as con:
        partitions = {name: partitions_with_data(con, d, rules) for name, d in definitions.items()}
        recorded = recorded_versions(con)
    for name, keys in partitions.items():
        known = set(instance.get_dynamic_partitions(name))
        if [k for k in keys if k not in known]:
            instance.add_dynamic_partitions(name, [k for k in keys if k not in known])
    return partitions, recorded


def asked_for(definitions: dict, partitions: dict, year: int, partition: str) -> tuple[dict, set]:
    """Which partitions a run may make of each definition (``year``: that billing year; ``partition``: that
    month or year, and no other of any definition), and the pairs it makes whatever their version
    (``partition``'s: its assets). ``partitions`` gains the partition asked for."""
    from pipelines.definitions import NODES
    from pipelines.stages import partition_key_for

    allowed = {name: set(keys) for name, keys in partitions.items()}
    forced: set[tuple[str, str]] = set()
    for name, d in definitions.items():
        key = partition_key_for(d, partition or str(year)) if (partition or year) else None
        if partition:
            allowed[name] = {key} if key else set()
        elif key:
            allowed[name] = {key}
        if partition and key:
            partitions[name] = sorted({*partitions.get(name, []), key})
            forced |= {(n.key, key) for n in NODES.values() if n.partitions == name}
    return allowed, forced


def to_make(pairs: set, sources: list[str], allowed: dict) -> set:
    """The (asset, partition) pairs of ``pairs`` a run makes: not the inputs (the ingestion step's), only
    the partitions ``allowed``, and every asset of a step that makes its assets together."""
    from outfall.versions import UNPARTITIONED
    from pipelines.definitions import NODES, TOGETHER

    todo = {
        (a, p)
        for a, p in pairs
        if a not in sources and (p == UNPARTITIONED or p in allowed.get(NODES[a].partitions, ()))
    }
    for group in TOGETHER:
        names = {k.to_user_string() for k in group}
        for p in {p for a, p in todo if a in names}:
            todo |= {(a, p) for a in names}
    return todo


def run_queued(
    server,
    data_dir: Path,
    warehouse: Path,
    as_of: str,
    year: int,
    dashboards: str,
    quiet: bool,
    partition: str,
    rules_dir: str,
) -> RunOutcome:
    """The same run through the instance's run queue (``pipelines.queue``): the ingestion step, then one
    backfill of what Dagster finds stale or missing (and, ``partition``, that partition and what reads it)."""
    import sys

    from assets.ingest import CHANGED_CHECKS_TAG
    from outfall.rules.town import default_town
    from pipelines import queue
    from pipelines.definitions import INGEST_KEYS

    started = time.perf_counter()
    settings = {"data_dir": str(data_dir), "as_of": as_of, "year": year, "dashboards_dir": dashboards}
    config = queue.run_config(settings, warehouse, rules_dir, default_town())
    tags = {"outfall/command": "run"}
    if not quiet:
        print(
            f"outfall: the runs wait in the queue of the Dagster instance of DAGSTER_HOME ({server.url}); "
            "the UI shows them",
            file=sys.stderr,
        )
    run_logger().info(
        "run (queued at %s): data %s, warehouse %s, as of %s", server.url, data_dir, warehouse, as_of
    )
    sources = sorted(k.to_user_string() for k in INGEST_KEYS)
    runs = [queue.launch_run(server, sources, config, {**tags, CHANGED_CHECKS_TAG: "1"})]
    statuses = [queue.wait_for_run(server, runs[0])]
    if statuses[0] == "SUCCESS":
        runs += _queued_backfill(server, config, tags, sources, year, partition)
    outcome = RunOutcome(ok=True, seconds=time.perf_counter() - started)
    for run_id in runs:
        _read_events(queue.events_of(server, run_id), outcome)
    outcome.ok = outcome.ok and not outcome.failures and statuses[0] == "SUCCESS"
    log_failures(outcome.failures)
    run_logger().info(
        "run %s in %.1f s (queued): %d assets materialized, %d failed",
        "succeeded" if outcome.ok else "failed",
        time.perf_counter() - started,
        len(set(outcome.materialized)),
        len(outcome.failures),
    )
    outcome.seconds = time.perf_counter() - started
    return outcome


def _queued_backfill(server, config: dict, tags: dict, sources: list[str], year: int, partition: str) -> list:
    """After the queued ingestion step: the partitions it reported registered (as the input sensor would,
    at once), then one backfill of what is stale, missing or asked for; the ids of its runs."""
    from dagster import DagsterInstance

    from outfall.versions import plan
    from pipelines import queue
    from pipelines.definitions import NODES, STAGES, partition_requests

    with DagsterInstance.get() as instance:
        for request in partition_requests(instance):
            instance.add_dynamic_partitions(request.partitions_def_name, list(request.partition_keys))
        partitions = {
            n.partitions: instance.get_dynamic_partitions(n.partitions)
            for n in NODES.values()
            if n.partitions
        }
    definitions = {s.partitions_def.name: s.partitions_def for s in STAGES if s.partitions_def is not None}
    allowed, forced = asked_for(definitions, partitions, year, partition)
    asked = {n.key: partitions.get(n.partitions, []) for n in NODES.values() if n.partitions}
    stale = queue.stale(server, [k for k in NODES if k not in sources], asked)
    todo = to_make(stale | plan(NODES, {}, {}, partitions, forced), sources, allowed)
    run_logger().info("run: %d tables and partitions to make, as one backfill", len(todo))
    if not todo:
        return []
    backfill = queue.launch_backfill(server, todo, config, tags)
    return queue.wait_for_backfill(server, backfill)


def _read_events(events, outcome: RunOutcome) -> None:
    """A queued run's events (the web server's GraphQL) into ``outcome``: what was materialized, the
    steps that failed and why, a failure of the run itself, the checks that found problems."""
    for event in events:
        kind = event["__typename"]
        if kind == "MaterializationEvent":
            outcome.materialized.append(event["assetKey"]["path"][-1])
        elif kind == "ExecutionStepFailureEvent":
            error = event.get("error") or {}
            messages = [error.get("message") or ""] + [
                c.get("message") or "" for c in error.get("causes") or []
            ]
            outcome.failures.append(
                (event["stepKey"], " | ".join(m.strip() for m in reversed(messages) if m))
            )
        elif kind == "RunFailureEvent":
            outcome.ok = False
            outcome.run_error = (event.get("error") or {}).get("message") or "the run failed"
        elif kind == "AssetCheckEvaluationEvent" and not event["evaluation"]["success"]:
            outcome.checks_failed.append(
                f"{event['evaluation']['assetKey']['path'][-1]}:{event['evaluation']['checkName']}"
            )


def _code_version(resources) -> str:
    from outfall.resources import value
    from outfall.versions import code_version

    return code_version(value(resources["rules"].rules_dir) or "")


def _pages_after_failure(stages, result, run_one, warehouse: Path) -> None:
    """A run in which a step failed still writes its pages (issue 37: the index above all, saying which
    steps failed and why): the pages it did not write (assets.pages.PAGES_AFTER_FAILURE) are written in
    one more run per stage that holds them, from what the warehouse holds. Its results join the run's."""
    import json

    from dagster import AssetKey, DagsterEventType

    from assets.pages import FAILED_STEPS_TAG, PAGES_AFTER_FAILURE
    from outfall.runlog import explain

    events = result.all_events
    done = {e.asset_key for e in events if e.event_type == DagsterEventType.ASSET_MATERIALIZATION}
    failed = [
        (e.step_key or "?", e.step_failure_data.error if e.step_failure_data else None)
        for e in events
        if e.event_type == DagsterEventType.STEP_FAILURE
    ]
    if not failed:
        return  # the run failed before any step could: nothing to say it with
    pages = {AssetKey(n) for n in PAGES_AFTER_FAILURE} - done - {AssetKey(step) for step, _ in failed}
    why = [[step, explain(error, warehouse).why] for step, error in failed]
    for stage in stages:
        keys = [k for k in stage.keys if k in pages]
        if keys and stage.partitions_def is None:
            result.results.append(run_one(stage, keys, {FAILED_STEPS_TAG: json.dumps(why)}))
            pages -= set(keys)


def outcome_of(result, seconds: float) -> RunOutcome:
    """What the command reports of a run: what was made, what failed and why, the checks."""
    from dagster import DagsterEventType

    outcome = RunOutcome(ok=result.success and bool(result.results), seconds=seconds)
    for event in result.all_events:
        if event.event_type == DagsterEventType.ASSET_MATERIALIZATION:
            outcome.materialized.append(event.asset_key.to_user_string())
        elif event.event_type == DagsterEventType.STEP_FAILURE:
            error = event.step_failure_data.error if event.step_failure_data else None
            outcome.failures.append((event.step_key or "?", error))
        elif event.event_type == DagsterEventType.RUN_FAILURE:
            outcome.run_error = getattr(event.event_specific_data, "error", None)
        elif event.event_type == DagsterEventType.ASSET_CHECK_EVALUATION:
            data = event.event_specific_data
            if data is not None and not data.passed:
                name = f"{data.asset_key.to_user_string()}:{data.check_name}"
                outcome.checks_failed.append(name)
                error = (data.metadata or {}).get("error")
                if error is not None:  # the check could not run (assets/checks.py: _reports_errors)
                    outcome.checks_not_run.append((name, str(getattr(error, "value", error))))
    log_failures(outcome.failures)
    if outcome.run_error is not None and not outcome.failures:
        run_logger().error(
            "the run failed before any asset could report why:\n%s", trace_text(outcome.run_error)
        )
    run_logger().info(
        "run %s in %.1f s: %d assets materialized, %d failed",
        "succeeded" if outcome.ok else "failed",
        outcome.seconds,
        len(set(outcome.materialized)),
        len(outcome.failures),
    )
    return outcome


def today_in(town) -> str:
    """Today in the town's time zone, as the day a run judges by when it is given none."""
    return (town.today() if town is not None else dt.date.today()).isoformat()
