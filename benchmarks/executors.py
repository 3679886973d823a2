"""Every core: a run of everything with Dagster's in-process executor (DuckDB with one thread, or its
default of one a core) against Dagster's multiprocess executor.

    .venv/bin/python -m benchmarks.executors --data DIR [--modes in_process,in_process_1,multiprocess]

- ``in_process``: `outfall run` as it is, one process; DuckDB runs each statement on every core.
- ``in_process_1``: the same with DuckDB on one thread (OUTFALL_DUCKDB_THREADS=1).
- ``multiprocess``: the same stages (pipelines.stages), each run by Dagster's multiprocess_executor
  (``max_concurrent`` processes, a step each) on a temporary Dagster instance: independent assets run
  side by side, each step in its own process opening the warehouse file. DuckDB lets one process
  write a file at a time, so a step that opens it while another holds it fails ("Could not set lock
  on file", dagster issue #18746). The ``multiprocess_1`` mode runs one step at a time instead
  (max_concurrent 1, what a tag_concurrency_limits of 1 on every DuckDB step amounts to): no lock
  conflict, a process start per step.
- ``multiprocess_fork`` and ``multiprocess_fork_1``: the same two, each step forked from a forkserver
  that imported Dagster and the assets once (the executor's ``start_method: forkserver`` with
  ``preload_modules``), instead of a new Python per step.

Each mode runs into a new warehouse; prints seconds, whether the run succeeded, steps that failed and
the warehouse's row counts checked against the in-process run's.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import run_command

REPO = Path(__file__).resolve().parents[1]
AS_OF = "2026-11-30"


# What a forkserver imports once, before it forks a process for each step: Dagster, every asset, DuckDB.
PRELOADED = ["benchmarks.executors", "pipelines.definitions"]


def stage_job(index: int, max_concurrent: int, start_method: str = "spawn"):
    """The stage ``index`` of a run of everything, with the multiprocess executor (module level, so that
    each step's process can rebuild it: dagster.build_reconstructable_job). ``start_method``: Dagster's
    default ``spawn`` (each step a new Python that imports everything), or ``forkserver`` (each step forked
    from one process that imported ``PRELOADED`` once)."""
    from dagster import AssetSelection, Definitions, define_asset_job, multiprocess_executor

    from pipelines.definitions import STAGES, all_assets, all_checks, build_resources

    stage = STAGES[index]
    config: dict = {"max_concurrent": max_concurrent}
    if start_method == "forkserver":
        config["start_method"] = {"forkserver": {"preload_modules": PRELOADED}}
    job = define_asset_job(
        stage.job_name,
        selection=AssetSelection.assets(*stage.keys),
        partitions_def=stage.partitions_def,
        executor_def=multiprocess_executor.configured(config),
    )
    return Definitions(
        assets=all_assets, asset_checks=all_checks, jobs=[job], resources=build_resources(as_of=AS_OF)
    ).resolve_job_def(stage.job_name)


def run_multiprocess(max_concurrent: int, start_method: str = "spawn") -> dict:
    """In this process (its environment names the folders): the stages one after the other."""
    from dagster import DagsterEventType, DagsterInstance, build_reconstructable_job, execute_job

    from assets.common import warehouse
    from pipelines.definitions import PARENTS, STAGES, build_resources
    from pipelines.stages import partitions_with_data, run_stages

    resources = build_resources(as_of=AS_OF)
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as home, DagsterInstance.local_temp(home) as instance:

        def wanted(stage):
            with warehouse(resources["duckdb"]) as con:
                return partitions_with_data(con, stage.partitions_def)

        def run_one(stage, keys, tags):
            job = build_reconstructable_job(
                "benchmarks.executors",
                "stage_job",
                reconstructable_args=(stage.index, max_concurrent, start_method),
            )
            t = time.perf_counter()
            result = execute_job(job, instance=instance, tags=tags, raise_on_error=False)
            print(
                f"{stage.job_name}: {time.perf_counter() - t:.1f} s, success {result.success}",
                file=sys.stderr,
                flush=True,
            )
            for event in result.all_events:
                if event.event_type == DagsterEventType.STEP_FAILURE:
                    error = event.step_failure_data.error if event.step_failure_data else None
                    first = (error.message if error else "?").splitlines()[0][:160]
                    failures.append(f"{event.step_key}: {first}")
            return result

        staged = run_stages(STAGES, PARENTS, run_one, wanted, instance)
        return {"success": staged.success, "failures": failures}


def multiprocess_command(max_concurrent: int, start_method: str, stderr_to: Path | None = None) -> list[str]:
    """The command that runs ``run_multiprocess`` in a new Python (its folders in its environment:
    OUTFALL_DATA_DIR, OUTFALL_WAREHOUSE), printing its result as JSON, exit 1 if a step failed.
    ``stderr_to``: the standard error of it and of every step process (Dagster's console log) to that
    file."""
    lines = ["import json, os, sys, benchmarks.executors as e"]
    if stderr_to is not None:
        lines += [f"log = open({str(stderr_to)!r}, 'w')", "os.dup2(log.fileno(), 2)"]
    lines += [
        f"r = e.run_multiprocess({max_concurrent}, {start_method!r})",
        "print(json.dumps(r))",
        "sys.exit(0 if r['success'] else 1)",
    ]
    return [sys.executable, "-c", "\n".join(lines) + "\n"]


def counts(warehouse: Path) -> dict[str, int]:
    import duckdb

    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        tables = [
            r[0]
            for r in con.execute(
                "SELECT table_name FROM duckdb_tables() WHERE NOT temporary ORDER BY 1"
            ).fetchall()
        ]
        return {t: con.execute(f'SELECT count(*) FROM "{t}"').fetchall()[0][0] for t in tables}
    finally:
        con.close()


def mode_settings(mode: str) -> tuple[int, str]:
    """A multiprocess mode's steps at a time and start method: ``multiprocess_fork_1`` is (1, forkserver)."""
    return (1 if mode.endswith("_1") else 2), ("forkserver" if "fork" in mode else "spawn")


def measure(mode: str, data: Path, work: Path, timeout: float = 1800) -> dict:
    warehouse = work / mode / "w.duckdb"
    shutil.rmtree(warehouse.parent, ignore_errors=True)
    warehouse.parent.mkdir(parents=True)
    env = dict(
        os.environ,
        GX_ANALYTICS_ENABLED="false",
        OUTFALL_DATA_DIR=str(data),
        OUTFALL_WAREHOUSE=str(warehouse),
        OUTFALL_AS_OF=AS_OF,
    )
    if mode == "in_process_1":
        env["OUTFALL_DUCKDB_THREADS"] = "1"
    if mode.startswith("in_process"):
        cmd = run_command(data, warehouse, AS_OF, "--quiet")
    else:
        cmd = multiprocess_command(*mode_settings(mode))
    started = time.perf_counter()
    err_path = warehouse.parent / "stderr.txt"
    try:
        with open(err_path, "w") as err:
            # its own process group: a run that times out is ended with every step process it started
            proc = subprocess.Popen(
                cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=err, text=True, start_new_session=True
            )
            try:
                out, _ = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                raise
        done = subprocess.CompletedProcess(cmd, proc.returncode, out, err_path.read_text())
    except subprocess.TimeoutExpired:
        stages = [line for line in err_path.read_text().splitlines() if line.startswith("everything_")]
        return {
            "mode": mode,
            "seconds": timeout,
            "exit": -1,
            "stderr": f"did not finish in {timeout} s; stages done: {'; '.join(stages) or 'none'}",
        }
    seconds = time.perf_counter() - started
    info = {"mode": mode, "seconds": round(seconds, 1), "exit": done.returncode}
    if not mode.startswith("in_process") and done.stdout.strip():  # its result, failed steps too
        info.update(json.loads(done.stdout.strip().splitlines()[-1]))
    if done.returncode != 0:
        info["stderr"] = done.stderr[-600:]
    if warehouse.exists():
        info["counts"] = counts(warehouse)
    return info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, type=Path)
    parser.add_argument("--modes", default="in_process,in_process_1,multiprocess,multiprocess_1")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "outfall_bench_executors")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds a mode may take")
    args = parser.parse_args(argv)
    print(f"{'mode':<16}{'seconds':>9}  ok   same rows as in_process  failed steps", flush=True)
    reference = None
    for mode in args.modes.split(","):
        r = measure(mode, args.data.resolve(), args.work, args.timeout)
        if mode == "in_process":
            reference = r.get("counts")
        same = (
            ""
            if reference is None or "counts" not in r
            else (
                "yes"
                if r["counts"] == reference
                else "no: " + ", ".join(t for t in reference if r["counts"].get(t) != reference[t])[:80]
            )
        )
        ok = "yes" if r["exit"] == 0 and r.get("success", True) else "no"
        print(f"{r['mode']:<16}{r['seconds']:>9}  {ok:<4} {same:<24} {len(r.get('failures', []))}")
        for failure in r.get("failures", [])[:6]:
            print(f"    {failure}")
        if "stderr" in r:
            print("    " + (r["stderr"].strip().splitlines() or [""])[-1][:200])
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
