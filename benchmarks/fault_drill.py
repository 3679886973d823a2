"""Fault drill: `outfall run` killed with SIGKILL in each phase, then run again.

    .venv/bin/python -m benchmarks.fault_drill [--seed 14] [--out DIR] [--keep]

On one small data folder (tests/conftest.py ``small_town`` plus a few thousand
flow readings with two slugs, and a few hundred parcels to bill):

1. an uninterrupted run into its own warehouse: the reference;
2. for each phase (ingestion, slug detection, billing, dashboards; and a re-run of one month,
   `outfall run --partition 2026-05`, and of one billing year, `--partition 2026`, each on a copy
   of the reference's loaded warehouse and pages, rerun with the same command) a fresh
   warehouse and a run that is killed with SIGKILL (kill -9) at a seeded random
   point of that phase. The phase is found in the run's log (``outfall.log``
   beside the warehouse, which has one line per step started and finished), not
   by sleeping blindly: the drill aims at one step of the phase (for ingestion
   the flow readings' step; otherwise one drawn with the seed), waits for it to
   start, then for a seeded random part of its length in the reference run, and
   kills; a kill that missed the phase (the step ended sooner than in the
   reference run) is made again, at once when the step starts;
3. a copy of the killed warehouse with the write-ahead log it left behind
   (``<warehouse>.wal``) is opened read-only: DuckDB replays the log, and every
   table that a step finished before the kill wrote is already there;
4. the same `outfall run` again on the killed warehouse: it must exit 0, every
   table of the warehouse must equal the reference's (same names, same rows in
   any order, ignoring only the columns that record the wall-clock time of a
   run) and the dashboards and exports folders must hold the same files, each
   text file with the same content but for the times of day it was written.

Prints one table: phase, the step the kill landed in and how long after the
aimed step started, how many runs were killed to land it, the size of the WAL
left behind, the rerun's seconds and whether the rerun is identical to the
reference. The test suite runs the same drill
(tests/test_fault_drill.py).
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from benchmarks.common import outfall_env, run_command, run_outfall
from benchmarks.executors import multiprocess_command

REPO = Path(__file__).resolve().parents[1]
AS_OF = "2026-11-30"
WAREHOUSE = "warehouse.duckdb"
LOG = "outfall.log"  # outfall.runlog.LOG_NAME, beside the warehouse

# Columns that record when a run happened (wall clock), not what it found: left out of the comparison.
# file_stamp too: a file is stamped only when it was read at least 2 s after it last changed
# (outfall.ingest.files.STAMP_SETTLE_S), so the reference run, made just after the drill writes its
# files, may leave it empty where a later rerun fills it in.
WALL_CLOCK_COLUMNS = frozenset(
    {"loaded_at", "superseded_at", "quarantined_at", "set_aside_at", "run_at", "file_stamp"}
)
# How the tables were made, not what they hold (outfall/versions.py): when each version was recorded, and
# versions that hash the warehouse's folder (the run's settings); a run that was killed records them again.
BOOKKEEPING_TABLES = frozenset({"_asset_versions", "_last_run"})

# The steps (Dagster step keys, as the run log names them) of each phase of the drill.
DASHBOARD_STEPS = (
    "billing_dashboard",
    "sewer_dashboard",
    "stormwater_dashboard",
    "pretreatment_report_pages",
    "letter_pdfs",
    "dashboard_index",
)


def phase_steps() -> dict[str, frozenset[str]]:
    return {
        "ingestion": frozenset({"input_folders"}),  # one step loads every input folder
        "slug detection": frozenset({"slug_events"}),
        "billing": frozenset({"sewer_billing"}),  # sewer_bills, billing_runs, ... in one transaction
        "dashboards": frozenset(DASHBOARD_STEPS),
        # `outfall run --partition`, on a copy of the reference's loaded warehouse
        "month re-run": frozenset({"slug_events"}),
        "billing year re-run": frozenset({"sewer_billing"}),
    }


# The phases that re-run one partition of a loaded warehouse (a copy of the reference's), and the
# partition: May 2026 of the readings (the drill's town also has June's: May alone is judged again),
# the billing year 2026.
PARTITION_RERUNS = {"month re-run": "2026-05", "billing year re-run": "2026"}


# The step a kill aims at in a phase: for ingestion, the one step that loads every folder; in the other
# phases one of the phase's steps that runs at least
# MIN_STEP_S in the reference run, drawn with the drill's seed.
MIN_STEP_S = 0.1
TRIGGERS = {"ingestion": "input_folders"}


# ---------------------------------------------------------------------------
# the data folder


def make_town(root: Path, seed: int = 14) -> Path:
    """small_town plus 10 days of 5-minute flow readings for both users (5,760 readings, one slug
    each, three bad rows) and 300 parcels of several classes in both districts."""
    sys.path.insert(0, str(REPO))
    from tests.conftest import small_town

    rng = random.Random(seed)
    small_town(root)
    start = dt.datetime(2026, 5, 2)
    for user, normal, slug_day, slug_value in (("IU-1", 10.0, 8, 80.0), ("IU-2", 20.0, 10, 200.0)):
        lines = ["user_id,timestamp,value,unit,constituent"]
        for i in range(10 * 288):
            at = start + dt.timedelta(minutes=5 * i)
            value = round(normal * rng.uniform(0.8, 1.2), 2)
            if at.day == slug_day and at.hour == 10 and at.minute < 40:  # 40 minutes: a slug
                value = slug_value
            lines.append(f"{user},{at:%Y-%m-%dT%H:%M:%S},{value},gpm,flow")
        if user == "IU-2":
            lines += [
                "IU-2,2026-05-12T00:00:00,-5,gpm,flow",
                "IU-2,2026-05-12T00:05:00,12,furlongs,flow",
                "IU-2,not a time,12,gpm,flow",
            ]
        (root / "flow" / f"drill_{user.lower()}.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    # two days of June for IU-1, one file: a month of readings besides May's
    june = ["user_id,timestamp,value,unit,constituent"] + [
        f"IU-1,{dt.datetime(2026, 6, 1) + dt.timedelta(minutes=5 * i):%Y-%m-%dT%H:%M:%S},"
        f"{round(10.0 * rng.uniform(0.8, 1.2), 2)},gpm,flow"
        for i in range(2 * 288)
    ]
    (root / "flow" / "drill_june.csv").write_text("\n".join(june) + "\n", encoding="utf-8")
    rows = [
        "parcel_id,district,property_class,acres,living_units,bathrooms,washing_machines,people,seats,"
        "moratorium,owner,address"
    ]
    classes = (
        "single_family",
        "single_family",
        "single_family",
        "two_family",
        "apartment",
        "commercial",
        "restaurant",
        "vacant",
    )
    for i in range(300):
        pclass = rng.choice(classes)
        district = rng.choice(("consolidated", "district_1"))
        acres = round(rng.uniform(0.2, 90 if pclass == "vacant" else 8), 2)
        units = rng.randint(2, 24) if pclass == "apartment" else ""
        baths = rng.randint(1, 6) if pclass == "commercial" else ""
        seats = rng.randint(10, 140) if pclass == "restaurant" else ""
        moratorium = "true" if rng.random() < 0.05 else "false"
        rows.append(
            f"D-{i:04d},{district},{pclass},{acres},{units},{baths},,,{seats},{moratorium},"
            f"Owner {i},{i} Drill Rd"
        )
    (root / "parcels" / "drill.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return root


# ---------------------------------------------------------------------------
# running and killing


def command(data: Path, warehouse: Path, partition: str = "") -> list[str]:
    return run_command(data, warehouse, AS_OF, *(["--partition", partition] if partition else []))


def _env() -> dict[str, str]:
    return outfall_env()


# The two ways the drill runs the stages: `outfall run` (Dagster's in-process executor), or the same
# stages on Dagster's multiprocess executor, two steps at a time, each forked from a forkserver
# (benchmarks/executors.py, mode multiprocess_fork): a kill then ends the run, the forkserver and the
# steps running side by side at once, as a power cut would.
IN_PROCESS, MULTIPROCESS = "in_process", "multiprocess"


def multiprocess_env(data: Path, warehouse: Path) -> dict[str, str]:
    """benchmarks.executors reads its folders from the environment, as the Dagster UI does; its as-of
    day is the drill's (AS_OF)."""
    return dict(_env(), OUTFALL_DATA_DIR=str(data), OUTFALL_WAREHOUSE=str(warehouse))


def run_log(warehouse: Path, executor: str = IN_PROCESS) -> Path:
    """Where a run's step lines are: the run log beside the warehouse, or (multiprocess) Dagster's console
    log, which the drill keeps as the killed run's output."""
    return warehouse.parent / (LOG if executor == IN_PROCESS else "killed_run.out")


def run_multiprocess(data: Path, warehouse: Path, timeout: float = 1200) -> tuple[int, str, float]:
    """The stages on the multiprocess executor, to the end: (exit status, output, seconds)."""
    warehouse.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    done = run_outfall(
        multiprocess_command(2, "forkserver"), env=multiprocess_env(data, warehouse), timeout=timeout
    )
    return done.returncode, done.stdout + done.stderr, time.perf_counter() - started


def run(
    data: Path, warehouse: Path, timeout: float = 600, partition: str = ""
) -> tuple[subprocess.CompletedProcess, float]:
    """`outfall run` to the end; (the finished process, its seconds)."""
    warehouse.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    done = run_outfall(command(data, warehouse, partition), timeout=timeout)
    return done, time.perf_counter() - started


_STEP_LINE = re.compile(r"^(\S+ \S+) INFO step (\S+) (started|finished)$")
# The same from Dagster's own console log, which each step process of the multiprocess executor writes
# to the run's standard error: "2026-12-03 17:10:10 +0000 - dagster - DEBUG - <job> - <run id> - <pid> -
# <step> - STEP_START - ...".
_DAGSTER_STEP_LINE = re.compile(
    r"^(\S+ \S+) \+0000 - dagster - DEBUG - \S+ - \S+ - \d+ - (\S+) - (STEP_START|STEP_SUCCESS) - "
)
_DAGSTER_WHAT = {"STEP_START": "started", "STEP_SUCCESS": "finished"}


def steps_in_log(log: Path) -> list[tuple[dt.datetime, str, str]]:
    """(time, step, 'started' | 'finished') for every step line of the run log (or of Dagster's console
    log of a multiprocess run), in order."""
    out = []
    if not log.exists():
        return out
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        m = _STEP_LINE.match(line)
        if m:
            out.append((dt.datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S,%f"), m.group(2), m.group(3)))
            continue
        m = _DAGSTER_STEP_LINE.match(line)
        if m:
            at = dt.datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S")
            out.append((at, m.group(2), _DAGSTER_WHAT[m.group(3)]))
    return out


def step_seconds(log: Path) -> dict[str, float]:
    """How long each step ran, from a finished run's log."""
    started: dict[str, dt.datetime] = {}
    out = {}
    for t, step, what in steps_in_log(log):
        if what == "started":
            started[step] = t
        elif step in started:
            out[step] = (t - started[step]).total_seconds()
    return out


def aim(
    phase: str, steps: frozenset[str], seconds: dict[str, float], rng: random.Random
) -> tuple[str, float]:
    """The step a kill in ``phase`` aims at and the seeded delay after it starts: a random point in
    the first half of its length in the reference run."""
    if not steps & set(seconds):
        raise RuntimeError(f"the reference run's log shows none of the steps of {phase}: {sorted(steps)}")
    long_enough = sorted(s for s in steps if seconds.get(s, 0.0) >= MIN_STEP_S)
    target = TRIGGERS.get(phase) or (
        rng.choice(long_enough) if long_enough else max(steps & set(seconds), key=seconds.__getitem__)
    )
    return target, rng.uniform(0.0, 0.5 * seconds.get(target, 0.0))


def running_at_end(log: Path) -> tuple[str, bool]:
    """The step a killed run was in (started, not finished): (step, True); or, killed between steps,
    (the last finished step, False)."""
    open_steps: dict[str, None] = {}
    last = ""
    for _t, step, what in steps_in_log(log):
        if what == "started":
            open_steps[step] = None
        else:
            open_steps.pop(step, None)
            last = step
    if open_steps:
        return list(open_steps)[-1], True
    return last, False


def open_at_end(log: Path) -> list[str]:
    """Every step started and not finished when the log ends (several when steps ran side by side)."""
    running: dict[str, None] = {}
    for _t, step, what in steps_in_log(log):
        if what == "started":
            running[step] = None
        else:
            running.pop(step, None)
    return list(running)


def finished_steps(log: Path) -> set[str]:
    return {step for _t, step, what in steps_in_log(log) if what == "finished"}


def kill_during(
    data: Path,
    warehouse: Path,
    steps: frozenset[str],
    delay: float,
    timeout: float = 600,
    partition: str = "",
    executor: str = IN_PROCESS,
) -> float:
    """Start `outfall run` (or, ``executor`` MULTIPROCESS, the same stages on Dagster's multiprocess
    executor), wait for one of ``steps`` to start (polling the run log), wait ``delay`` seconds, then
    SIGKILL the run and every process it started. Returns the seconds from the phase's start to the
    kill."""
    warehouse.parent.mkdir(parents=True, exist_ok=True)
    log = run_log(warehouse, executor)
    with open(warehouse.parent / "killed_run.out", "w") as out:
        proc = subprocess.Popen(
            multiprocess_command(2, "forkserver")
            if executor == MULTIPROCESS
            else command(data, warehouse, partition),
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=REPO,
            env=_env() if executor == IN_PROCESS else multiprocess_env(data, warehouse),
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + timeout
            phase_started = None
            while phase_started is None:
                if proc.poll() is not None:
                    raise RuntimeError(
                        f"the run ended (exit {proc.returncode}) before the phase {sorted(steps)} started"
                    )
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the phase {sorted(steps)} did not start within {timeout} s")
                if any(step in steps and what == "started" for _t, step, what in steps_in_log(log)):
                    phase_started = time.monotonic()
                else:
                    time.sleep(0.005)
            time.sleep(delay)
            os.killpg(proc.pid, signal.SIGKILL)  # the run's own process group (start_new_session)
            killed = time.monotonic() - phase_started
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return killed


# ---------------------------------------------------------------------------
# comparing warehouses


def _value(v, folder: str):
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    if isinstance(v, str) and folder:
        return v.replace(folder, "<warehouse folder>")
    return v


def warehouse_tables(path: Path, folder: Path | None = None) -> dict[str, tuple[tuple[str, ...], Counter]]:
    """Every table of a warehouse: (its columns but the wall-clock ones, a multiset of its rows).
    Paths under ``folder`` (the warehouse's folder, named in outfall_run) are written relative to it."""
    prefix = str(folder.resolve()) if folder is not None else ""
    con = duckdb.connect(str(path), read_only=True)
    try:
        tables = [
            r[0]
            for r in con.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
                "ORDER BY table_name"
            ).fetchall()
        ]
        out = {}
        for table in (t for t in tables if t not in BOOKKEEPING_TABLES):
            columns = [
                r[0]
                for r in con.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_schema = 'main' "
                    "AND table_name = ? ORDER BY ordinal_position",
                    [table],
                ).fetchall()
            ]
            kept = tuple(c for c in columns if c not in WALL_CLOCK_COLUMNS)
            select = ", ".join(f'"{c}"' for c in kept) or "1"
            rows = con.execute(f'SELECT {select} FROM "{table}"').fetchall()
            out[table] = (kept, Counter(tuple(_value(v, prefix) for v in row) for row in rows))
        return out
    finally:
        con.close()


def table_differences(expected: dict, actual: dict, limit: int = 3) -> list[str]:
    """What differs between two ``warehouse_tables`` (empty when every table is equal)."""
    problems = []
    for name in sorted(set(expected) - set(actual)):
        problems.append(f"table {name} is missing")
    for name in sorted(set(actual) - set(expected)):
        problems.append(f"table {name} should not exist")
    for name in sorted(set(expected) & set(actual)):
        (cols_e, rows_e), (cols_a, rows_a) = expected[name], actual[name]
        if cols_e != cols_a:
            problems.append(f"table {name}: columns {cols_a} instead of {cols_e}")
            continue
        if rows_e != rows_a:
            missing, extra = rows_e - rows_a, rows_a - rows_e
            problems.append(
                f"table {name}: {sum(rows_a.values())} rows instead of {sum(rows_e.values())}; "
                f"missing {list(missing.elements())[:limit]}, extra {list(extra.elements())[:limit]}"
            )
    return problems


# A time of day in a page or an export ("generated 2026-11-30 23:22", run_at): masked before comparing.
_CLOCK = re.compile(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[+-]\d{2}:?\d{2}|Z)?")
_TEXT_FILES = (".html", ".csv", ".css", ".js", ".json", ".txt", ".md")


def files_under(folder: Path) -> set[str]:
    """Every file under ``folder`` (hidden ones too), relative to it."""
    if not folder.exists():
        return set()
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}


def output_files(folder: Path) -> dict[str, str | None]:
    """The files a run writes beside its warehouse (dashboards/, exports/), relative to ``folder``:
    a text file's content with times of day and ``folder`` masked; None for other files (XLSX, PDF:
    compared by name only)."""
    out: dict[str, str | None] = {}
    for sub in ("dashboards", "exports"):
        for name in files_under(folder / sub):
            path = folder / sub / name
            text = None
            if path.suffix.lower() in _TEXT_FILES:
                text = _CLOCK.sub("<time>", path.read_text(encoding="utf-8", errors="replace"))
                text = text.replace(str(folder.resolve()), "<warehouse folder>")
            out[f"{sub}/{name}"] = text
    return out


def file_differences(expected: dict[str, str | None], got: dict[str, str | None]) -> tuple[set, set, set]:
    """Two ``output_files``: the files missing, those that should not be there, those that differ."""
    changed = {name for name in set(expected) & set(got) if expected[name] != got[name]}
    return set(expected) - set(got), set(got) - set(expected), changed


# ---------------------------------------------------------------------------
# the drill


@dataclass
class KillResult:
    phase: str
    target: str  # the step the kill aimed at
    delay: float  # seconds waited after it started
    killed_after: float  # seconds from the aimed step's start to the kill
    step: str  # the step the kill landed in (or the last one finished before it)
    in_step: bool  # True: killed while ``step`` ran; False: between steps, after ``step``
    in_phase: bool  # the kill landed while a step of the phase ran
    wal_bytes: int | None  # the write-ahead log the kill left (None: none)
    wal_problems: list[str] = field(default_factory=list)  # a copy opened read-only lacks committed work
    attempts: int = 1  # runs killed to land one kill in the phase
    rerun_exit: int = -1
    rerun_seconds: float = 0.0
    rerun_stderr: str = ""
    differences: list[str] = field(default_factory=list)
    files_missing: set[str] = field(default_factory=set)  # dashboards/ and exports/ against the reference
    files_extra: set[str] = field(default_factory=set)
    files_changed: set[str] = field(default_factory=set)

    @property
    def identical(self) -> bool:
        return (
            self.rerun_exit == 0
            and not self.differences
            and not self.files_missing
            and not self.files_extra
            and not self.files_changed
            and not self.wal_problems
        )


@dataclass
class Drill:
    reference_seconds: float
    reference_tables: int
    files: dict[str, str | None]  # dashboards/ and exports/ of the uninterrupted run
    kills: list[KillResult]
    executor: str = IN_PROCESS
    # MULTIPROCESS: an uninterrupted run on that executor, against `outfall run`'s (the reference)
    executor_seconds: float = 0.0
    executor_differences: list[str] = field(default_factory=list)


# Tables a finished step has committed, checked in the replayed copy of a killed warehouse.
COMMITTED_BY = {
    "flow": ("flow", "ingested_files"),
    "parcels": ("parcels",),
    "slug_events": ("slug_events",),
    "sewer_billing": ("sewer_bills", "billing_runs", "billing_summary"),
}


def _replayed_copy(
    warehouse: Path, work: Path, reference: dict, done: set[str]
) -> tuple[int | None, list[str]]:
    """Copy the killed warehouse and its WAL; open the copy read-only (DuckDB replays the WAL) and
    compare the tables of finished steps with the reference."""
    wal = warehouse.with_name(warehouse.name + ".wal")
    wal_bytes = wal.stat().st_size if wal.exists() else None
    wanted = {t for step in done for t in COMMITTED_BY.get(step, ())}
    if not warehouse.exists():
        # Killed before any step opened the warehouse (each step opens it for its own length): nothing was
        # written, which is whole; only a step that finished would have left tables to find.
        return wal_bytes, [
            f"no warehouse, though {', '.join(sorted(wanted))} had committed"
        ] if wanted else []
    work.mkdir(parents=True, exist_ok=True)
    copy = work / warehouse.name
    shutil.copy2(warehouse, copy)
    if wal_bytes is not None:
        shutil.copy2(wal, copy.with_name(copy.name + ".wal"))
    try:
        replayed = warehouse_tables(copy)
    except duckdb.Error as exc:
        return wal_bytes, [f"the killed warehouse does not open: {exc}"]
    problems = table_differences(
        {t: reference[t] for t in wanted}, {t: replayed[t] for t in wanted if t in replayed}
    )
    return wal_bytes, problems


def drill(
    root: Path,
    seed: int = 14,
    phases: list[str] | None = None,
    log=print,
    executor: str = IN_PROCESS,
    uninterrupted: bool = True,
) -> Drill:
    """``executor`` MULTIPROCESS: the killed runs are the stages on the multiprocess executor (not the
    re-runs of one partition, which are `outfall run --partition`), each followed by `outfall run`; and
    (``uninterrupted``) an uninterrupted run on that executor is compared with `outfall run`'s."""
    rng = random.Random(seed)
    data = make_town(root / "data", seed)
    all_phases = phase_steps()
    chosen = phases or [p for p in all_phases if executor == IN_PROCESS or p not in PARTITION_RERUNS]

    ref_wh = root / "reference" / WAREHOUSE
    done, seconds = run(data, ref_wh)
    if done.returncode != 0:
        raise RuntimeError(f"the uninterrupted run failed (exit {done.returncode}): {done.stderr}")
    reference = warehouse_tables(ref_wh, ref_wh.parent)
    ref_files = output_files(ref_wh.parent)
    ref_seconds = step_seconds(ref_wh.parent / LOG)
    log(f"reference run: {seconds:.1f} s, {len(reference)} tables, {len(ref_files)} files written")
    result = Drill(seconds, len(reference), ref_files, [], executor)
    if executor == MULTIPROCESS and uninterrupted:
        other = root / "uninterrupted_multiprocess" / WAREHOUSE
        status, output, result.executor_seconds = run_multiprocess(data, other)
        if status != 0:
            raise RuntimeError(f"the uninterrupted multiprocess run failed (exit {status}): {output[-2000:]}")
        result.executor_differences = table_differences(reference, warehouse_tables(other, other.parent))
        missing, extra, changed = file_differences(ref_files, output_files(other.parent))
        result.executor_differences += [f"file {name} is missing" for name in sorted(missing)]
        result.executor_differences += [f"file {name} should not exist" for name in sorted(extra)]
        result.executor_differences += [f"file {name} differs" for name in sorted(changed)]
        log(
            f"uninterrupted multiprocess run: {result.executor_seconds:.1f} s, "
            f"{'the same tables and files' if not result.executor_differences else 'DIFFERENT'}"
        )

    kills = result.kills
    for phase in chosen:
        steps = all_phases[phase]
        target, delay = aim(phase, steps, ref_seconds, rng)
        folder = root / f"killed_{phase.replace(' ', '_')}"
        warehouse = folder / WAREHOUSE
        # A step can end sooner than in the reference run: a kill that missed the phase is made
        # again, at once when the step starts.
        partition = PARTITION_RERUNS.get(phase, "")
        for attempt in range(1, 4):
            shutil.rmtree(folder, ignore_errors=True)
            if partition:  # the loaded warehouse and its pages, as the reference run left them
                shutil.copytree(ref_wh.parent, folder)
                (folder / LOG).unlink()
            killed_after = kill_during(
                data,
                warehouse,
                frozenset({target}),
                delay if attempt == 1 else 0.0,
                partition=partition,
                executor=executor,
            )
            step, in_step = running_at_end(run_log(warehouse, executor))
            running = open_at_end(run_log(warehouse, executor))
            in_phase = any(s in steps for s in running)  # killed while a step of the phase ran
            if in_phase:
                step = " and ".join(s for s in running if s in steps)  # side by side: each
                break
            log(
                f"{phase}: the kill {killed_after:.2f} s after {target} started landed "
                f"{'in' if in_step else 'after'} {step}, outside the phase; again"
            )
        wal_bytes, wal_problems = _replayed_copy(
            warehouse, folder / "replayed", reference, finished_steps(run_log(warehouse, executor))
        )
        if executor == IN_PROCESS:
            shutil.copy2(folder / LOG, folder / "killed_run.log")
        kill = KillResult(
            phase, target, delay, killed_after, step, in_step, in_phase, wal_bytes, wal_problems, attempt
        )
        rerun, kill.rerun_seconds = run(data, warehouse, partition=partition)
        kill.rerun_exit, kill.rerun_stderr = rerun.returncode, rerun.stderr
        if rerun.returncode == 0:
            kill.differences = table_differences(reference, warehouse_tables(warehouse, folder))
            kill.files_missing, kill.files_extra, kill.files_changed = file_differences(
                ref_files, output_files(folder)
            )
        kills.append(kill)
        log(
            f"{phase}: killed {killed_after:.2f} s after {target} started, "
            f"{'in' if in_step else 'after'} {step}; rerun {kill.rerun_seconds:.1f} s, "
            f"{'identical' if kill.identical else 'DIFFERENT'}"
        )
    return result


def table_text(result: Drill) -> str:
    lines = [
        f"uninterrupted run: {result.reference_seconds:.1f} s, {result.reference_tables} tables, "
        f"{len(result.files)} files in dashboards/ and exports/",
    ]
    if result.executor == MULTIPROCESS and result.executor_seconds:
        lines.append(
            f"uninterrupted run on the multiprocess executor: {result.executor_seconds:.1f} s, "
            + ("the same tables and files" if not result.executor_differences else "DIFFERENT")
        )
        lines += [f"    {problem}" for problem in result.executor_differences[:5]]
    if result.executor == MULTIPROCESS:
        lines.append("killed runs: the multiprocess executor, two steps at a time; reruns: `outfall run`")
    lines += [
        f"{'phase':<21}{'killed in (after s)':<36}{'tries':>6}{'WAL left':>10}{'rerun s':>9}  identical",
    ]
    for k in result.kills:
        where = f"{'' if k.in_step else 'after '}{k.step} ({k.killed_after:.2f})"
        wal = f"{k.wal_bytes / 1024:,.0f} KB" if k.wal_bytes is not None else "none"
        lines.append(
            f"{k.phase:<21}{where:<36}{k.attempts:>6}{wal:>10}{k.rerun_seconds:>9.1f}  "
            f"{'yes' if k.identical else 'NO'}"
        )
        for problem in [*k.wal_problems, *k.differences][:5]:
            lines.append(f"    {problem}")
        if k.rerun_exit != 0:
            lines.append(f"    rerun exit {k.rerun_exit}: {k.rerun_stderr.strip()[:300]}")
        if k.files_missing or k.files_extra or k.files_changed:
            lines.append(
                f"    files missing {sorted(k.files_missing)}, extra {sorted(k.files_extra)}, "
                f"changed {sorted(k.files_changed)}"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--out", type=Path, default=None, help="work folder (default: a temporary one)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    parser.add_argument(
        "--executor",
        choices=(IN_PROCESS, MULTIPROCESS),
        default=IN_PROCESS,
        help="what runs the killed runs: `outfall run` (default) or Dagster's multiprocess executor",
    )
    args = parser.parse_args(argv)
    root = args.out or Path(tempfile.mkdtemp(prefix="outfall_fault_drill_"))
    if root.exists() and any(root.iterdir()):
        shutil.rmtree(root)
    root.mkdir(parents=True, exist_ok=True)
    try:
        result = drill(root, args.seed, log=lambda s: print(s, file=sys.stderr), executor=args.executor)
        print(table_text(result))
        passed = all(k.identical and k.in_phase for k in result.kills) and not result.executor_differences
        return 0 if passed else 1
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
        else:
            print(f"work folder kept: {root}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
