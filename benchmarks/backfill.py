"""A year's backfill with Dagster's multiprocess executor, beside a bare DuckDB load and scan.

    .venv/bin/python -m benchmarks.backfill --meters 2000    # 1.05B one-minute readings, 12 Parquet files

The readings are benchmarks/ingest.py's (generated once into ``--dir``; the CSV side is left out). Three
runs, each in its own process, its wall time and peak RSS measured by benchmarks/peak_rss.py (the largest
of the processes it waits for), and, since the forked steps are not processes the run waits for, what
the whole machine did while it ran (on a quiet machine, the run's): its CPU seconds (/proc/stat) and
its peak memory (/proc/meminfo, above what was in use before):

- the bare load and scan (``benchmarks.ingest --bare parquet``);
- every stage of a run (pipelines.stages, as `outfall run` orders them) run by the multiprocess executor
  of benchmarks/executors.py, each step forked from a forkserver that imported Dagster and the assets
  once, over a new warehouse: the months' stage is one run over the twelve month partitions
  (``BackfillPolicy.single_run()``). One step at a time (``--mode multiprocess_fork_1``, the default):
  with two (``multiprocess_fork``) the steps started beside the readings' load, which holds the DuckDB
  file for minutes, failed once dagster-duckdb's ten retries to open it (about 102 s) were spent;
- the same without the readings (what the stages cost whatever the data).

Prints the table of docs/benchmarks.md: marginal time (with minus without) against the bare figure,
peak RSS, the warehouse's size against the Parquet's, and each stage's seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

from benchmarks.executors import mode_settings, multiprocess_command
from benchmarks.ingest import _child, generate

DEFAULT_DIR = Path(tempfile.gettempdir()) / "outfall_bench_backfill"


def _machine_busy_s() -> float:
    """Seconds of CPU the whole machine has spent busy since it started (/proc/stat): a step forked by
    the forkserver is not a child this benchmark waits for, so its CPU is counted this way."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    user, nice, system, idle, iowait, irq, softirq, steal = (int(f) for f in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _memory_in_use_mb() -> float:
    """MemTotal less MemAvailable (/proc/meminfo): what the machine's processes hold, the page cache not
    counted."""
    info = dict(line.split(":", 1) for line in Path("/proc/meminfo").read_text().splitlines())
    return (int(info["MemTotal"].split()[0]) - int(info["MemAvailable"].split()[0])) / 1024


def _measured(cmd: list[str], env: dict | None = None) -> dict:
    """benchmarks.ingest._child, the machine's busy CPU seconds while it ran, and the most memory the
    machine's processes held above what they held before it started (sampled every 0.2 s: every
    process of the run, the forked steps too)."""
    before, idle_mb = _machine_busy_s(), _memory_in_use_mb()
    peak = [idle_mb]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.2):
            peak[0] = max(peak[0], _memory_in_use_mb())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        measured = _child(cmd, env)
    finally:
        done.set()
        sampler.join()
    measured["machine_cpu_s"] = _machine_busy_s() - before
    measured["machine_peak_mb"] = peak[0] - idle_mb
    return measured


def _stages(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("everything_")]


def _executor_run(data: Path, warehouse: Path, mode: str) -> dict:
    """One run of every stage with the executor ``mode`` of benchmarks/executors.py, in a new warehouse."""
    for suffix in ("", ".wal", ".lock"):
        Path(str(warehouse) + suffix).unlink(missing_ok=True)
    shutil.rmtree(warehouse.parent / "dashboards", ignore_errors=True)
    warehouse.parent.mkdir(parents=True, exist_ok=True)
    env = dict(
        os.environ,
        GX_ANALYTICS_ENABLED="false",
        DAGSTER_DISABLE_TELEMETRY="1",
        OUTFALL_DATA_DIR=str(data),
        OUTFALL_WAREHOUSE=str(warehouse),
    )
    log = warehouse.parent / "stderr.txt"
    measured = _measured(multiprocess_command(*mode_settings(mode), stderr_to=log), env)
    measured["stages"] = _stages(log.read_text())
    return measured


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.backfill", description=__doc__.split("\n")[0])
    ap.add_argument("--meters", type=int, default=2000)
    ap.add_argument("--days", type=int, default=365)
    ap.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    ap.add_argument(
        "--mode", default="multiprocess_fork_1", help="an executor mode of benchmarks/executors.py"
    )
    args = ap.parse_args(argv)
    root = args.dir
    marker = root / f"generated_{args.meters}_{args.days}_0"
    if not marker.exists():
        shutil.rmtree(root, ignore_errors=True)
    generated = generate(root, args.meters, args.days, 0)
    marker.touch()
    flow = root / "parquet_data" / "flow"
    parquet_bytes = sum(p.stat().st_size for p in flow.glob("*.parquet"))
    print(
        f"readings generated in {generated['generate_s']:.1f} s (0 if kept); "
        f"Parquet {parquet_bytes / 1e9:.2f} GB"
    )
    bare = _measured([sys.executable, "-m", "benchmarks.ingest", "--dir", str(root), "--bare", "parquet"])
    print(f"bare load and scan: {bare['seconds']:.1f} s", flush=True)
    warehouse = root / "runs" / args.mode / "w.duckdb"
    with_flow = _executor_run(root / "parquet_data", warehouse, args.mode)
    print(f"with the readings: {with_flow['seconds']:.1f} s", flush=True)
    import duckdb

    with duckdb.connect(str(warehouse), read_only=True) as con:
        stored = con.execute("SELECT count(*) FROM flow").fetchall()[0][0]
        slugs = con.execute("SELECT count(*) FROM slug_events").fetchall()[0][0]
    warehouse_bytes = warehouse.stat().st_size
    without = _executor_run(
        root / "no_flow_data", root / "runs" / f"{args.mode}_none" / "w.duckdb", args.mode
    )
    marginal = with_flow["seconds"] - without["seconds"]
    marginal_cpu = with_flow["machine_cpu_s"] - without["machine_cpu_s"]
    result = {
        "mode": args.mode,
        "readings_stored": stored,
        "slugs": slugs,
        "parquet_gb": round(parquet_bytes / 1e9, 2),
        "warehouse_gb": round(warehouse_bytes / 1e9, 2),
        "bare": bare,
        "with": with_flow,
        "without": without,
        "marginal_s": round(marginal, 1),
        "ratio_wall": round(marginal / bare["seconds"], 2),
        "ratio_cpu": round(marginal_cpu / bare["machine_cpu_s"], 2),
        "load_average": os.getloadavg(),
    }
    print(json.dumps(result, indent=1))
    print()
    print("| | bare DuckDB load + scan | with the readings | without them | marginal | marginal / bare |")
    print("|---|---|---|---|---|---|")
    print(
        f"| wall time | {bare['seconds']:,.1f} s | {with_flow['seconds']:,.1f} s "
        f"| {without['seconds']:,.1f} s "
        f"| {marginal:,.1f} s | {result['ratio_wall']}x |"
    )
    print(
        f"| CPU time (the machine's) | {bare['machine_cpu_s']:,.1f} s | {with_flow['machine_cpu_s']:,.1f} s "
        f"| {without['machine_cpu_s']:,.1f} s "
        f"| {marginal_cpu:,.1f} s | {result['ratio_cpu']}x |"
    )
    print(
        f"| peak RSS (the process it waits for) | {bare['peak_rss_mb']:,.0f} MB "
        f"| {with_flow['peak_rss_mb']:,.0f} MB "
        f"| {without['peak_rss_mb']:,.0f} MB | | |"
    )
    print(
        f"| peak memory (all its processes) | {bare['machine_peak_mb']:,.0f} MB "
        f"| {with_flow['machine_peak_mb']:,.0f} MB | {without['machine_peak_mb']:,.0f} MB | | |"
    )
    print(
        f"\nreadings stored {stored:,}, slugs {slugs:,}; warehouse {result['warehouse_gb']} GB for "
        f"{result['parquet_gb']} GB of Parquet ({warehouse_bytes / parquet_bytes:.2f}x)"
    )
    for line in with_flow["stages"]:
        print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
