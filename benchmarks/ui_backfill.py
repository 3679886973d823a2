"""The UI's "Materialize all", timed: `dagster dev` on a new instance, a backfill of every asset over all
partitions launched through the web server's GraphQL API (the call the UI's dialog makes), waited for.

    .venv/bin/python -m benchmarks.ui_backfill --data DIR [--rounds 3] [--venv .venv] [--port 3838]
        [--compare WAREHOUSE]

Each round starts `dagster dev -m pipelines.definitions` (with ``--venv``'s Python: another checkout's, to
measure it side by side) in a new DAGSTER_HOME with the project's ``pipelines/dagster.yaml`` and a new
warehouse, waits until the web server answers and the daemon has started, launches the backfill as the UI
does (``launchPartitionBackfill`` with every asset key and ``allPartitions``), waits for it to end and
prints its seconds, its status, its runs and the partitions it covered. ``--compare``: every table of the
backfill's warehouse is compared with that warehouse's (an `outfall run` of the same data and as-of).
Figures, not a test (``tests/test_ui_backfill.py`` is the test).
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

REPO = Path(__file__).resolve().parents[1]
AS_OF = "2026-11-30"
DONE = {"COMPLETED", "COMPLETED_SUCCESS", "COMPLETED_FAILED", "FAILED", "CANCELED", "FAILING"}

ASSET_KEYS = "{ assetNodes { assetKey { path } isPartitioned partitionKeys } }"
LAUNCH = """mutation($params: LaunchBackfillParams!) { launchPartitionBackfill(backfillParams: $params) {
  __typename ... on LaunchBackfillSuccess { backfillId } ... on PythonError { message }
  ... on UnauthorizedError { message } ... on PartitionSetNotFoundError { message } } }"""
STATUS = """query($id: String!) { partitionBackfillOrError(backfillId: $id) {
  ... on PartitionBackfill { status numPartitions runs(limit: 1000) { runId status } } } }"""
DAEMONS = "{ instance { daemonHealth { allDaemonStatuses { daemonType healthy } } } }"


def graphql(port: int, query: str, variables: dict | None = None, timeout: float = 60) -> dict:
    """The web server's GraphQL API on ``port`` (as `outfall run` calls it, pipelines.queue)."""
    from pipelines.queue import Server

    return Server(f"http://127.0.0.1:{port}").query(query, variables, timeout=timeout)


def stop_server(proc: subprocess.Popen, wait: float = 30) -> None:
    """`dg dev` and what it started (its process group): SIGTERM, then SIGKILL after ``wait`` seconds."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)


def wait_until_up(port: int, proc: subprocess.Popen, limit: float = 120) -> float:
    """Seconds until the web server answers and the daemon reports its backfill loop healthy."""
    started = time.perf_counter()
    while time.perf_counter() - started < limit:
        if proc.poll() is not None:
            raise RuntimeError(f"dagster dev ended with {proc.returncode}")
        try:
            statuses = graphql(port, DAEMONS, timeout=5)["instance"]["daemonHealth"]["allDaemonStatuses"]
            if any(s["daemonType"] == "BACKFILL" and s["healthy"] for s in statuses):
                return time.perf_counter() - started
        except (OSError, RuntimeError):
            pass
        time.sleep(0.5)
    raise RuntimeError("dagster dev did not come up")


def start_server(venv: Path, checkout: Path, env: dict, port: int, log) -> subprocess.Popen:
    """`dg dev` in the checkout (a project with [tool.dg]), else `dagster dev -m pipelines.definitions`."""
    dg = venv / "bin" / "dg"
    if dg.exists() and "[tool.dg]" in (checkout / "pyproject.toml").read_text(encoding="utf-8"):
        env = dict(env, VIRTUAL_ENV=str(venv), PATH=f"{venv / 'bin'}:{env.get('PATH', '')}")
        command = [str(dg), "dev", "-p", str(port), "-h", "127.0.0.1"]
    else:
        command = [str(venv / "bin" / "dagster"), "dev", "-m", "pipelines.definitions"]
        command += ["-p", str(port), "-h", "127.0.0.1"]
    return subprocess.Popen(
        command, cwd=checkout, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )


RUNS = "{ runsOrError { ... on Runs { results { runId status jobName startTime endTime } } } }"


def runs(port: int) -> list[dict]:
    return graphql(port, RUNS)["runsOrError"]["results"]


def wait_for_runs(port: int, first: float = 20, limit: float = 600) -> float:
    """Seconds until the runs the daemon started on its own (the input sensor's) have ended; ``first``:
    how long to wait for one to appear (none on a checkout without that sensor)."""
    started = time.perf_counter()
    while time.perf_counter() - started < limit:
        found = runs(port)
        if found and all(r["status"] in ("SUCCESS", "FAILURE", "CANCELED") for r in found):
            return time.perf_counter() - started
        if not found and time.perf_counter() - started > first:
            return 0.0
        time.sleep(0.5)
    raise RuntimeError("the daemon's runs did not end")


def wait_for_partitions(port: int, limit: float = 120) -> float:
    """Seconds until the input sensor has registered the partitions the loaded files give (its next tick
    after the load: every partitioned asset has at least one)."""
    started = time.perf_counter()
    while time.perf_counter() - started < limit:
        nodes = graphql(port, ASSET_KEYS)["assetNodes"]
        if all(n["partitionKeys"] for n in nodes if n["isPartitioned"]):
            return time.perf_counter() - started
        time.sleep(1)
    raise RuntimeError("the input sensor registered no partitions")


def materialize_all(port: int, limit: float = 900) -> dict:
    """Launch the UI's "Materialize all" (every asset, all partitions) and wait for the backfill."""
    nodes = graphql(port, ASSET_KEYS)["assetNodes"]
    keys = [{"path": n["assetKey"]["path"]} for n in nodes]
    partitions = {
        "/".join(n["assetKey"]["path"]): len(n["partitionKeys"]) for n in nodes if n["isPartitioned"]
    }
    started = time.perf_counter()
    launched = graphql(port, LAUNCH, {"params": {"assetSelection": keys, "allPartitions": True}})
    result = launched["launchPartitionBackfill"]
    if result["__typename"] != "LaunchBackfillSuccess":
        raise RuntimeError(result)
    while time.perf_counter() - started < limit:
        state = graphql(port, STATUS, {"id": result["backfillId"]})["partitionBackfillOrError"]
        if state["status"] in DONE:
            break
        time.sleep(0.25)
    return {
        "seconds": round(time.perf_counter() - started, 2),
        "status": state["status"],
        "runs": len(state["runs"]),
        "runs_failed": sum(r["status"] != "SUCCESS" for r in state["runs"]),
        "assets": len(keys),
        "partitions": partitions,
    }


def one_round(args, workdir: Path) -> dict:
    home, warehouse = workdir / "dagster_home", workdir / "warehouse" / "outfall.duckdb"
    shutil.rmtree(workdir, ignore_errors=True)
    home.mkdir(parents=True)
    shutil.copy(Path(args.checkout) / "pipelines" / "dagster.yaml", home / "dagster.yaml")
    env = dict(
        os.environ,
        DAGSTER_HOME=str(home),
        OUTFALL_DATA_DIR=str(Path(args.data).resolve()),
        OUTFALL_WAREHOUSE=str(warehouse),
        OUTFALL_AS_OF=AS_OF,
        GX_ANALYTICS_ENABLED="false",
    )
    log = open(workdir / "dagster_dev.log", "w")  # noqa: SIM115 - closed below
    proc = start_server(Path(args.venv), Path(args.checkout), env, args.port, log)
    try:
        up = wait_until_up(args.port, proc)
        loaded = wait_for_runs(args.port, first=90 if Path(args.checkout) == REPO else 10)
        if Path(args.checkout) == REPO:
            loaded += wait_for_partitions(args.port)
        time.sleep(args.settle)
        outcome = materialize_all(args.port)
        outcome["inputs_loaded_s"] = round(loaded, 2)
        outcome["startup_s"] = round(up, 2)
    finally:
        stop_server(proc)
        log.close()
    if args.compare:
        outcome["differences"] = compare(warehouse, Path(args.compare))
    return outcome


def compare(left: Path, right: Path) -> list[str]:
    """Tables whose rows differ (wall-clock columns left out)."""
    sys.path.insert(0, str(REPO))
    from benchmarks.fault_drill import table_differences, warehouse_tables  # the drill's comparison

    return table_differences(warehouse_tables(right, right.parent), warehouse_tables(left, left.parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--venv", default=str(REPO / ".venv"))
    parser.add_argument("--checkout", default=str(REPO), help="the checkout whose dagster.yaml is used")
    parser.add_argument("--port", type=int, default=3838)
    parser.add_argument("--settle", type=float, default=0.0, help="seconds to wait after start-up")
    parser.add_argument("--dir", default=str(Path(tempfile.gettempdir()) / "outfall_bench_ui"))
    parser.add_argument("--compare", default="")
    args = parser.parse_args()
    results = []
    for i in range(args.rounds):
        outcome = one_round(args, Path(args.dir) / f"round{i}")
        print(json.dumps(outcome), flush=True)
        results.append(outcome)
    seconds = sorted(r["seconds"] for r in results)
    print(f"median {seconds[len(seconds) // 2]} s over {len(seconds)} rounds: {seconds}")


if __name__ == "__main__":
    main()
