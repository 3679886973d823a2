"""What a run makes, and how long it takes, when little changed (issue 47): `outfall run` on the demo town
with nothing new, with one new lab-results file and with a new day judged by, against a full run and
against Python importing Dagster, DuckDB and pandas; and the daemon's reaction to one new file.

    .venv/bin/python -m benchmarks.runs [--rounds 3] [--checkout DIR] [--dir DIR] [--daemon] [--port 3839]

The demo town's data is made once (`outfall demo`'s generator, its seed and year) under DIR (by default
outfall_bench_runs in the temporary folder). Each round, each case in its own process, in this order:

- ``import``: ``python -c "import dagster, duckdb, pandas"`` (the yardstick);
- ``full``: `outfall run` on a new warehouse (as of 2026-11-30);
- ``nothing new``: the same command again;
- ``one new file``: the same, with one new lab-results file of one row;
- ``new day``: the same, as of 2026-12-01.

Each prints its wall time (median of the rounds) and the assets the command says it materialized; the
ratios are taken round by round (nothing new / import; one new file / full), their median printed.
``--checkout DIR``: the `outfall` of another checkout (``python -m outfall`` from DIR, with DIR first on
the path: `git archive` of main, to measure before and after side by side).

``--daemon``: `dg dev` on a new instance (pipelines/dagster.yaml) and a copy of the data; once the input
sensor loaded the folders and registered the partitions, "Materialize all" (as docs/operating.md starts a
town), then the automation sensor is switched on and left to settle; then one lab-results file is added,
and what follows is counted: the runs the daemon starts, by job, the assets they materialize, and the
seconds from the file to the last run's end. Figures, not a test.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import outfall_command, outfall_env, run_outfall
from benchmarks.ingest import _median
from benchmarks.ui_backfill import (
    graphql,
    materialize_all,
    start_server,
    stop_server,
    wait_for_partitions,
    wait_for_runs,
    wait_until_up,
)

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DIR = Path(tempfile.gettempdir()) / "outfall_bench_runs"
AS_OF, NEXT_DAY = "2026-11-30", "2026-12-01"
NEW_LAB_FILE = (
    "sample_id,user_id,collected_at,sample_type,parameter,result,unit,mdl,lab,method\n"
    "IU-003-20261120-C,IU-003,2026-11-20T08:00:00,composite,BOD,910,mg/L,,EnviroTest Laboratories,SM 5210 B\n"
)
MATERIALIZED = re.compile(r"(\d+) assets materialized")


def make_data(root: Path) -> Path:
    """The demo town's data folder, made once."""
    data, made = root / "data", root / "data.made"
    if not made.exists():
        shutil.rmtree(data, ignore_errors=True)
        from outfall.demo.generate import generate
        from pipelines.cli import DEMO_AS_OF, DEMO_SEED

        generate(data, seed=DEMO_SEED, scale=1.0, year=int(DEMO_AS_OF[:4]))
        made.write_text("", encoding="utf-8")
    return data


def outfall(checkout: Path, *args: str) -> tuple[float, int]:
    """`outfall ...` of ``checkout`` in its own process: wall seconds, assets it says it materialized."""
    env = outfall_env(PYTHONPATH=str(checkout))
    env.pop("DAGSTER_HOME", None)
    started = time.perf_counter()
    done = run_outfall(outfall_command(*args), env=env, cwd=checkout)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"outfall {' '.join(args)} exited {done.returncode}: {done.stderr[-2000:]}")
    found = MATERIALIZED.search(done.stdout)
    return seconds, int(found.group(1)) if found else -1


def yardstick() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import dagster, duckdb, pandas"], check=True)
    return time.perf_counter() - started


def one_round(checkout: Path, data: Path, work: Path) -> dict:
    """The five cases once, one after the other on one warehouse (a copy would move the pages' folder,
    which is part of what a run records); the data folder is copied so that the new file is this round's."""
    shutil.rmtree(work, ignore_errors=True)
    mine = work / "data"
    shutil.copytree(data, mine)
    run = ["run", "--data", str(mine), "--warehouse", str(work / "run" / "w.duckdb")]
    found = {"import": (yardstick(), 0)}
    found["full"] = outfall(checkout, *run, "--as-of", AS_OF)
    found["nothing new"] = outfall(checkout, *run, "--as-of", AS_OF)
    (mine / "lab_results" / "benchmark_new_file.csv").write_text(NEW_LAB_FILE, encoding="utf-8")
    found["one new file"] = outfall(checkout, *run, "--as-of", AS_OF)
    found["new day"] = outfall(checkout, *run, "--as-of", NEXT_DAY)
    return found


def print_table(rounds: list[dict]) -> None:
    print(f"{'case':<14}{'wall s (median)':>17}{'min-max':>15}{'assets':>9}")
    for case in rounds[0]:
        walls = [r[case][0] for r in rounds]
        assets = sorted({r[case][1] for r in rounds})
        spread = f"{min(walls):.2f}-{max(walls):.2f}"
        print(f"{case:<14}{_median(walls):>17.2f}{spread:>15}{'/'.join(map(str, assets)):>9}")
    nothing = _median([r["nothing new"][0] / r["import"][0] for r in rounds])
    one = _median([r["one new file"][0] / r["full"][0] for r in rounds])
    day = _median([r["new day"][0] / r["full"][0] for r in rounds])
    print(f"nothing new / import: {nothing:.2f} (target <= 1.5)")
    print(f"one new file / full:  {one:.2f} (target <= 0.30)")
    print(f"new day / full:       {day:.2f}")


# ---------------------------------------------------------------------------
# the daemon

START_SENSOR = """mutation($selector: SensorSelector!) { startSensor(sensorSelector: $selector) {
  __typename ... on Sensor { sensorState { status } } ... on PythonError { message } } }"""
RUN_STATS = """{ runsOrError { ... on Runs { results { runId status jobName startTime endTime
  stats { ... on RunStatsSnapshot { materializations } } } } } }"""


def wait_until_quiet(port: int, quiet: float, limit: float = 1800) -> list[dict]:
    """The runs, once none is queued or running and none started for ``quiet`` seconds."""
    started = last_change = time.perf_counter()
    seen = -1
    while time.perf_counter() - started < limit:
        found = graphql(port, RUN_STATS)["runsOrError"]["results"]
        busy = any(r["status"] not in ("SUCCESS", "FAILURE", "CANCELED") for r in found)
        if busy or len(found) != seen:
            seen, last_change = len(found), time.perf_counter()
        elif time.perf_counter() - last_change > quiet:
            return found
        time.sleep(1)
    raise RuntimeError("the daemon did not settle")


def daemon(checkout: Path, data: Path, work: Path, port: int) -> dict:
    shutil.rmtree(work, ignore_errors=True)
    home, mine = work / "dagster_home", work / "data"
    home.mkdir(parents=True)
    shutil.copy(checkout / "pipelines" / "dagster.yaml", home / "dagster.yaml")
    shutil.copytree(data, mine)
    env = dict(
        os.environ,
        DAGSTER_HOME=str(home),
        OUTFALL_DATA_DIR=str(mine),
        OUTFALL_WAREHOUSE=str(work / "warehouse" / "outfall.duckdb"),
        OUTFALL_AS_OF=AS_OF,
        GX_ANALYTICS_ENABLED="false",
    )
    log = open(work / "dg_dev.log", "w")  # noqa: SIM115 - closed below
    proc = start_server(REPO / ".venv", checkout, env, port, log)
    try:
        wait_until_up(port, proc)
        wait_for_runs(port, first=120)
        wait_for_partitions(port)
        made = materialize_all(port)  # as a town starts (docs/operating.md): every table made once
        selector = {"repositoryLocationName": "outfall", "repositoryName": "__repository__"}
        graphql(port, START_SENSOR, {"selector": {**selector, "sensorName": "outfall_automation"}})
        before = {r["runId"] for r in wait_until_quiet(port, quiet=100)}
        dropped = time.time()
        (mine / "lab_results" / "benchmark_new_file.csv").write_text(NEW_LAB_FILE, encoding="utf-8")
        after = [r for r in wait_until_quiet(port, quiet=100) if r["runId"] not in before]
    finally:
        stop_server(proc, wait=60)
        log.close()
    jobs: dict[str, int] = {}
    for r in after:
        jobs[r["jobName"]] = jobs.get(r["jobName"], 0) + 1
    return {
        "Materialize all first": f"{made['status']} in {made['seconds']} s",
        "runs": len(after),
        "by job": jobs,
        "failed": sum(r["status"] != "SUCCESS" for r in after),
        "assets materialized": sum((r["stats"] or {}).get("materializations", 0) for r in after),
        "seconds from the file to the last run's end": round(
            max((r["endTime"] or 0) for r in after) - dropped, 1
        )
        if after
        else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--checkout", default=str(REPO), help="the checkout whose `outfall` is run")
    parser.add_argument("--dir", default=str(DEFAULT_DIR))
    parser.add_argument("--daemon", action="store_true", help="also the daemon's reaction to one new file")
    parser.add_argument("--port", type=int, default=3839)
    args = parser.parse_args()
    checkout, root = Path(args.checkout).resolve(), Path(args.dir)
    data = make_data(root)
    rounds = [one_round(checkout, data, root / f"round{i}") for i in range(args.rounds)]
    print_table(rounds)
    if args.daemon:
        outcome = daemon(checkout, data, root / "daemon", args.port)
        print("the daemon, one new lab-results file:", ", ".join(f"{k}: {v}" for k, v in outcome.items()))


if __name__ == "__main__":
    main()
