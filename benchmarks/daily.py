"""Where the seconds of a daily run go: `outfall run` on an empty folder, on the demo town's folder (a new
warehouse, then again with nothing new), and on a loaded year of meter readings (one new day's file, then
again with nothing new), each in its own process.

    .venv/bin/python -m benchmarks.daily [--rounds 3] [--dir DIR] [--year-meters 190]

(DIR: by default outfall_bench_daily in the temporary folder.)

The loaded year is benchmarks/ingest.py's: ``--year-meters`` meters of one-minute readings for a year in
twelve monthly Parquet files (190 meters: about 100M readings; 0 leaves the case out), loaded once into a
warehouse. Each round copies that warehouse and runs on the year plus the next day's file.

For each run it prints the wall time, then splits it with the run log's lines (outfall.log beside the
warehouse): starting up (from the process's start to the run's first line: Python, Dagster, the assets and
DuckDB imported, the Definitions built), the steps (the sum of the "step ... started/finished" pairs, and the
slowest five), and the rest (Dagster between the steps, the summary, the exit). Figures, not a test:
the medians of ``--rounds`` rounds.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import outfall_env, run_command, run_outfall
from benchmarks.ingest import _median

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DIR = Path(tempfile.gettempdir()) / "outfall_bench_daily"
AS_OF = "2026-11-30"
LINE = re.compile(r"^(\S+ \S+),(\d+) INFO (.*)$")
STEP = re.compile(r"step (\S+) (started|finished)$")


def _when(date: str, ms: str) -> float:
    return dt.datetime.strptime(date, "%Y-%m-%d %H:%M:%S").timestamp() + int(ms) / 1000.0


def split_log(text: str, started: float) -> dict:
    """Start-up, steps and rest of the last run in a run log's text; ``started``: the process's start."""
    runs = [m.start() for m in re.finditer(r"^\S+ \S+ INFO run: ", text, re.M)]
    text = text[runs[-1] :] if runs else text
    first = last = None
    begun: dict[str, float] = {}
    steps: list[tuple[float, str]] = []
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        at = _when(m.group(1), m.group(2))
        first = at if first is None else first
        last = at
        s = STEP.search(m.group(3))
        if s and s.group(2) == "started":
            begun[s.group(1)] = at
        elif s and s.group(1) in begun:
            steps.append((at - begun.pop(s.group(1)), s.group(1)))
    steps.sort(reverse=True)
    return {
        "startup_s": (first - started) if first else 0.0,
        "steps_s": sum(d for d, _ in steps),
        "n_steps": len(steps),
        "last_line": last,
        "slowest": steps[:5],
    }


def timed_run(data: Path, warehouse: Path, as_of: str = AS_OF) -> dict:
    started = time.time()
    t = time.perf_counter()
    done = run_outfall(
        run_command(data, warehouse, as_of, "--quiet"), env=outfall_env(PYTHONDONTWRITEBYTECODE="")
    )
    wall = time.perf_counter() - t
    if done.returncode != 0:
        raise SystemExit(f"outfall run failed ({done.returncode}):\n{done.stderr[-3000:]}")
    parts = split_log((warehouse.parent / "outfall.log").read_text(encoding="utf-8"), started)
    parts["wall_s"] = wall
    parts["rest_s"] = wall - parts["startup_s"] - parts["steps_s"]
    return parts


def _fresh(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)


def loaded_year(root: Path, meters: int) -> tuple[Path, Path, float]:
    """(the year's folder with the next day's file beside it, the folder of the warehouse that holds the year
    without that day, the seconds the year took to load): generated and loaded once, kept between runs."""
    from benchmarks import ingest

    year = root / f"year_{meters}"
    ingest.generate(year, meters, 365, 1)
    day_data = year / "year_and_a_day"
    if not (day_data / "flow").exists():
        (day_data / "flow").mkdir(parents=True)
        shutil.copytree(year / "parquet_data" / "industrial_users", day_data / "industrial_users")
        for month in sorted((year / "parquet_data" / "flow").glob("*.parquet")):
            os.link(month, day_data / "flow" / month.name)
        os.link(ingest._append_day(year, 0), day_data / "flow" / "zz_the_next_day.parquet")
    loaded = year / "loaded"
    seconds = float((loaded / "seconds").read_text()) if (loaded / "seconds").exists() else 0.0
    if not seconds:
        _fresh(loaded)
        seconds = timed_run(year / "parquet_data", loaded / "w.duckdb", ingest.AS_OF)["wall_s"]
        (loaded / "seconds").write_text(f"{seconds:.2f}")
    return day_data, loaded, seconds


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.daily", description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    ap.add_argument(
        "--year-meters",
        type=int,
        default=190,
        help="meters of the loaded year (190: ~100M readings; 0: none)",
    )
    args = ap.parse_args(argv)
    root = args.dir
    empty, demo = root / "empty_data", root / "demo_data"
    empty.mkdir(parents=True, exist_ok=True)
    if not demo.exists():
        from outfall.demo.generate import generate
        from pipelines.cli import DEMO_SEED

        generate(demo, seed=DEMO_SEED, scale=1.0, year=int(AS_OF[:4]))
    cases = {"empty folder": [], "demo, new warehouse": [], "demo, nothing new": []}
    if args.year_meters:
        from benchmarks.ingest import AS_OF as YEAR_AS_OF

        day_data, loaded, load_s = loaded_year(root, args.year_meters)
        cases |= {"year, one new day": [], "year, nothing new": []}
    for _ in range(args.rounds):
        _fresh(root / "empty")
        cases["empty folder"].append(timed_run(empty, root / "empty" / "w.duckdb"))
        _fresh(root / "demo")
        cases["demo, new warehouse"].append(timed_run(demo, root / "demo" / "w.duckdb"))
        cases["demo, nothing new"].append(timed_run(demo, root / "demo" / "w.duckdb"))
        if args.year_meters:
            shutil.rmtree(root / "year_run", ignore_errors=True)
            shutil.copytree(loaded, root / "year_run")
            for case in ("year, one new day", "year, nothing new"):
                cases[case].append(timed_run(day_data, root / "year_run" / "w.duckdb", YEAR_AS_OF))
    print(
        f"outfall run, medians of {args.rounds} rounds (load average after: "
        f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs)"
    )
    print(f"{'':22}{'wall s':>8}{'start-up s':>12}{'steps s':>9}{'steps':>7}{'rest s':>8}  slowest steps (s)")
    for name, runs in cases.items():
        med = {k: _median([r[k] for r in runs]) for k in ("wall_s", "startup_s", "steps_s", "rest_s")}
        slow = ", ".join(f"{s} {d:.2f}" for d, s in runs[-1]["slowest"])
        print(
            f"{name:22}{med['wall_s']:>8.2f}{med['startup_s']:>12.2f}{med['steps_s']:>9.2f}"
            f"{runs[-1]['n_steps']:>7}{med['rest_s']:>8.2f}  {slow}"
        )
    if args.year_meters:
        walls = {k: _median([r["wall_s"] for r in cases[k]]) for k in ("empty folder", "year, one new day")}
        more = walls["year, one new day"] - walls["empty folder"]
        print(
            f"the loaded year: {args.year_meters} meters, loaded once in {load_s:.1f} s; "
            f"one new day's run less an empty folder's: {more:.2f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
