"""Benchmark of the real path: `outfall run` on a year of 1-minute meter readings.

    .venv/bin/python -m benchmarks.ingest [--meters 190 --days 365 --csv-days 91]

Generates, with DuckDB, ``meters`` x ``days`` of 1-minute flow readings as
Parquet (one file per month, ~100M readings at the defaults; the readings of
benchmarks/slugs.py) and ``meters`` x ``csv_days`` as one CSV file (~25M rows,
local times without offset, as a meter's export writes them), and the permits
of the meters. Then, each in its own process (so peak memory is its own):

- bare: DuckDB alone loads the same files into a table (timestamp parse and
  time-zone conversion) and scans them grouped by meter;
- outfall with the flow files, then without them: `python -m outfall run`, the
  very command a town runs (ingestion, checks, slug detection, every other
  asset, dashboards), each in a new warehouse; the marginal time is the
  difference.

These three side by side make a round (``--rounds``, 3 by default, per format);
each round's ratio is its own marginal over its own bare load, and the table
gives the medians. Then:

- append: APPEND_DAYS times, one more day of readings added to the loaded year
  and the run again (end to end), side by side with a re-run with nothing new
  and a run without flow; the table gives the medians.

Prints one table: bare vs marginal time, the ratio, rows per second, peak RSS.
Targets (figures, not tests): marginal <= 5 x bare, peak RSS <= 2 GB for both
formats, appending a day <= 5 % of the full run.

    .venv/bin/python -m benchmarks.ingest --layouts [--rows 10M] [--layout one_file,monthly,daily]
                                          [--formats parquet,csv] [--rounds 1]

runs instead the three layouts of one year of readings side by side, in both formats: one
year-long file, twelve monthly files, one small file per meter per day (in a folder per meter);
``--rows`` readings (``rows / 525,600`` meters, a year of 1-minute readings each, less the one
reading the generator leaves out of about one meter-hour in 5,000: 30 of 10M). Each layout and
format: the bare DuckDB load and scan of the same files, `outfall run` with them and without them;
printed: marginal, bare, ratio, rows per second, seconds per file, peak RSS. Targets (issue 30):
marginal / bare <= 3 for every layout and format.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import outfall_env, run_command
from benchmarks.slugs import _GENERATE, START_EPOCH

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DIR = Path(tempfile.gettempdir()) / "outfall_bench_ingest"
AS_OF = "2026-01-31"
_LAUNCHER = Path(__file__).with_name("peak_rss.py")
APPEND_DAYS = 3  # days appended one after another to the loaded year, each run side by side


def _con(memory_limit: str = "1GB"):
    import duckdb

    con = duckdb.connect()
    con.execute("SET TimeZone = 'America/New_York'")
    con.execute("SET memory_limit = ?", [memory_limit])
    con.execute("SET enable_progress_bar = false")
    return con


def _month_starts(days: int) -> list[tuple[int, int]]:
    """(first day, number of days) of each calendar month within ``days`` from 2025-01-01."""
    import datetime as dt

    start = dt.date(2025, 1, 1)
    out, day = [], 0
    while day < days:
        d = start + dt.timedelta(days=day)
        nxt = (d.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
        n = min((nxt - d).days, days - day)
        out.append((day, n))
        day += n
    return out


def generate(root: Path, meters: int, days: int, csv_days: int) -> dict:
    """The input folders (kept between runs: generated once)."""
    t = time.perf_counter()
    con = _con()
    parquet = root / "parquet_data"
    csv = root / "csv_data"
    for folder in (parquet, csv, root / "no_flow_data"):
        (folder / "industrial_users").mkdir(parents=True, exist_ok=True)
    users = "user_id,name,district\n" + "".join(
        f"IU-{m:04d},Meter {m},consolidated\n" for m in range(1, meters + 1)
    )
    for folder in (parquet, csv, root / "no_flow_data"):
        (folder / "industrial_users" / "users.csv").write_text(users)
    (parquet / "flow").mkdir(exist_ok=True)
    (csv / "flow").mkdir(exist_ok=True)
    jobs = [
        (parquet / "flow" / f"flow_{i + 1:02d}.parquet", first, n, "parquet")
        for i, (first, n) in enumerate(_month_starts(days))
    ]
    jobs += [(_append_day(root, k), days + k, 1, "parquet") for k in range(APPEND_DAYS)]
    jobs.append((csv / "flow" / "flow.csv", 0, csv_days, "csv"))
    for path, first, n, fmt in jobs:
        if path.exists():
            continue
        tmp = path.with_name(path.name + ".tmp")
        select = _GENERATE.strip()
        select = select[select.index("(") + 1 : select.rindex(") TO")]
        if fmt == "parquet":
            query = (
                f"COPY (SELECT user_id, ts AS timestamp, value, 'gpm' AS unit FROM ({select})) "
                f"TO '{tmp}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)"
            )
        else:
            query = (
                f"COPY (SELECT user_id, strftime(timezone('America/New_York', ts), '%Y-%m-%dT%H:%M:%S') "
                f"AS timestamp, round(value, 3) AS value, 'gpm' AS unit FROM ({select})) "
                f"TO '{tmp}' (FORMAT csv, HEADER)"
            )
        con.execute(
            query,
            {"meters": meters, "minutes": n * 1440, "first_minute": first * 1440, "start_epoch": START_EPOCH},
        )
        tmp.rename(path)
    return {"generate_s": time.perf_counter() - t}


def _append_day(root: Path, k: int) -> Path:
    """The k-th day appended after the year (0 = the day after its last)."""
    return root / ("append_day.parquet" if k == 0 else f"append_day_{k + 1}.parquet")


def _readings(root: Path) -> dict:
    con = _con()
    pq = str(root / "parquet_data" / "flow" / "*.parquet")
    return {
        "parquet": con.execute(f"SELECT count(*) FROM read_parquet('{pq}')").fetchall()[0][0],
        "csv": con.execute(
            "SELECT count(*) FROM read_csv(?)", [str(root / "csv_data" / "flow" / "flow.csv")]
        ).fetchall()[0][0],
        "parquet_bytes": sum(p.stat().st_size for p in (root / "parquet_data" / "flow").glob("*.parquet")),
        "parquet_files": len(list((root / "parquet_data" / "flow").glob("*.parquet"))),
        "csv_bytes": (root / "csv_data" / "flow" / "flow.csv").stat().st_size,
    }


# ---------------------------------------------------------------------------
# phases, each in a child process


def bare(root: Path, fmt: str) -> None:
    """DuckDB alone: load into a table (parse, time zone) and scan grouped by meter."""
    db = root / f"bare_{fmt}.duckdb"
    db.unlink(missing_ok=True)
    import duckdb

    con = duckdb.connect(str(db))
    con.execute("SET TimeZone = 'America/New_York'")
    con.execute("SET memory_limit = '1GB'")
    if fmt == "parquet":
        pq = str(root / "parquet_data" / "flow" / "*.parquet")
        load = f"CREATE TABLE flow AS SELECT user_id, timestamp AS ts, value, unit FROM read_parquet('{pq}')"
    else:
        path = str(root / "csv_data" / "flow" / "flow.csv")
        load = (
            "CREATE TABLE flow AS SELECT user_id, timezone('America/New_York', CAST(timestamp AS "
            f"TIMESTAMP)) AS ts, CAST(value AS DOUBLE) AS value, unit FROM read_csv('{path}', all_varchar = "
            "true)"
        )
    con.execute(load)
    con.execute("SELECT user_id, count(*), avg(value), max(ts) FROM flow GROUP BY user_id").fetchall()
    con.close()
    db.unlink(missing_ok=True)


def _child(cmd: list[str], env: dict | None = None, cwd: Path = REPO) -> dict:
    """Run a command; its wall time, CPU time and its own peak RSS.

    Measured by benchmarks/peak_rss.py, a small process that starts the command and waits for it: a
    command started straight from this (large) process would be reported at least as large as this
    process's own peak (see that file)."""
    read, write = os.pipe()
    with os.fdopen(read) as pipe:
        try:
            proc = subprocess.run(
                [sys.executable, "-I", str(_LAUNCHER), str(write), *cmd],
                cwd=cwd,
                env=env,
                capture_output=True,
                text=True,
                pass_fds=(write,),
            )
        finally:
            os.close(write)  # so that the read ends with the launcher's report
        report = pipe.read()
    if proc.returncode != 0 or not report:
        raise SystemExit(f"{' '.join(cmd)} could not be measured:\n{proc.stderr[-3000:]}")
    usage = json.loads(report)
    if usage["returncode"] != 0:
        raise SystemExit(
            f"{' '.join(cmd)} failed ({usage['returncode']}):\n{proc.stderr[-3000:]}\n{proc.stdout[-2000:]}"
        )
    return {"seconds": usage["seconds"], "peak_rss_mb": usage["maxrss_kib"] / 1024.0, "cpu_s": usage["cpu_s"]}


def _outfall(data: Path, warehouse: Path) -> dict:
    # as `make` runs it: Python writes its compiled modules (the warm-up's), and every later run
    # reads them, as an installed Outfall does (PYTHONDONTWRITEBYTECODE set would compile every
    # module again in every run, and the figure would measure the compiler)
    return _child(run_command(data, warehouse, AS_OF, "--quiet"), outfall_env(PYTHONDONTWRITEBYTECODE=""))


def _fresh(warehouse: Path) -> None:
    for suffix in ("", ".wal", ".lock"):
        Path(str(warehouse) + suffix).unlink(missing_ok=True)
    shutil.rmtree(warehouse.parent / "dashboards", ignore_errors=True)


def run_all(root: Path, rounds: int) -> dict:
    """``rounds`` rounds per format, each three runs side by side: the bare load, `outfall run` with
    the flow files and without them, each in a new warehouse. A round's ratio is its own marginal
    over its own bare load, timed a minute apart: the machine's speed drifts by a quarter within
    an evening, and a bare load timed minutes before the runs moved the ratio by as much."""
    runs = root / "runs"
    runs.mkdir(exist_ok=True)
    base = runs / "none" / "w.duckdb"
    base.parent.mkdir(exist_ok=True)
    _fresh(base)
    _outfall(root / "no_flow_data", base)  # warm-up: file caches, first imports
    res: dict = {"rounds": {"parquet": [], "csv": []}}
    for fmt in ("parquet", "csv"):
        wh = runs / fmt / "w.duckdb"
        wh.parent.mkdir(exist_ok=True)
        for _ in range(rounds):
            bare_run = _child([sys.executable, "-m", "benchmarks.ingest", "--dir", str(root), "--bare", fmt])
            _fresh(wh)
            with_flow = _outfall(root / f"{fmt}_data", wh)
            _fresh(base)
            without = _outfall(root / "no_flow_data", base)
            res["rounds"][fmt].append({"bare": bare_run, "with": with_flow, "without": without})
        with __import__("duckdb").connect(str(wh), read_only=True) as con:
            res[f"flow_rows_{fmt}"] = con.execute("SELECT count(*) FROM flow").fetchall()[0][0]
            res[f"slugs_{fmt}"] = con.execute("SELECT count(*) FROM slug_events").fetchall()[0][0]
    res["outfall_empty_rerun"] = _outfall(root / "no_flow_data", base)
    # The last round's Parquet warehouse holds the year. Each day in turn is appended and the run
    # made, then side by side a re-run with nothing new (what the loaded year, now with that day,
    # costs any run) and a run without flow in a new warehouse.
    wh = runs / "parquet" / "w.duckdb"
    res["appends"] = []
    added = [root / "parquet_data" / "flow" / f"zz_append_day_{k + 1}.parquet" for k in range(APPEND_DAYS)]
    try:
        for k, day in enumerate(added):
            shutil.copy(_append_day(root, k), day)
            appended = _outfall(root / "parquet_data", wh)
            again = _outfall(root / "parquet_data", wh)
            _fresh(base)
            res["appends"].append(
                {"append": appended, "again": again, "without": _outfall(root / "no_flow_data", base)}
            )
    finally:
        for day in added:
            day.unlink(missing_ok=True)
    return res


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


# ---------------------------------------------------------------------------
# --layouts: one year of readings as one file, twelve monthly files, a file per meter per day

LAYOUTS = ("one_file", "monthly", "daily")
FORMATS = ("parquet", "csv")


def _count(text: str) -> int:
    """'10M' -> 10_000_000 ('k' and 'G' too)."""
    text = text.strip().upper().replace("_", "")
    scale = {"K": 10**3, "M": 10**6, "G": 10**9, "B": 10**9}.get(text[-1:], 1)
    return int(float(text.rstrip("KMGB")) * scale)


def _layout_dir(root: Path, layout: str, fmt: str) -> Path:
    return root / f"{layout}_{fmt}"


def generate_layouts(root: Path, meters: int, layouts, formats) -> dict:
    """Each layout's data folder (the users and the flow files), generated once and kept; and the
    number of readings every layout holds: fewer than ``meters`` x 525,600, because the generator
    leaves one reading out of about one meter-hour in 5,000 (benchmarks/slugs.py)."""
    t = time.perf_counter()
    con = _con("2GB")
    users = "user_id,name,district\n" + "".join(
        f"IU-{m:04d},Meter {m},consolidated\n" for m in range(1, meters + 1)
    )
    select = _GENERATE.strip()
    select = select[select.index("(") + 1 : select.rindex(") TO")]
    params = {"meters": meters, "minutes": 365 * 1440, "first_minute": 0, "start_epoch": START_EPOCH}
    (root / "no_flow_data" / "industrial_users").mkdir(parents=True, exist_ok=True)
    (root / "no_flow_data" / "industrial_users" / "users.csv").write_text(users)
    for layout in layouts:
        for fmt in formats:
            folder = _layout_dir(root, layout, fmt)
            done = folder / ".generated"
            if done.exists():
                continue
            shutil.rmtree(folder, ignore_errors=True)
            (folder / "industrial_users").mkdir(parents=True)
            (folder / "industrial_users" / "users.csv").write_text(users)
            if fmt == "parquet":
                cols = "user_id, ts AS timestamp, value, 'gpm' AS unit"
                options = "FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880"
            else:
                cols = (
                    "user_id, strftime(timezone('America/New_York', ts), '%Y-%m-%dT%H:%M:%S') "
                    "AS timestamp, round(value, 3) AS value, 'gpm' AS unit"
                )
                options = "FORMAT csv, HEADER"
            local_day = "strftime(timezone('America/New_York', ts), '%Y-%m-%d')"
            if layout == "one_file":
                target = folder / "flow" / f"flow.{fmt}"
                query = f"COPY (SELECT {cols} FROM ({select})) TO '{target}' ({options})"
                (folder / "flow").mkdir()
            elif layout == "monthly":
                query = (
                    f"COPY (SELECT {cols}, strftime(timezone('America/New_York', ts), '%m') AS month "
                    f"FROM ({select})) TO '{folder / 'flow'}' ({options}, PARTITION_BY (month), "
                    f"FILENAME_PATTERN 'flow_{{i}}')"
                )
            else:
                query = (
                    f"COPY (SELECT {cols}, user_id AS meter, {local_day} AS day FROM ({select})) "
                    f"TO '{folder / 'flow'}' ({options}, PARTITION_BY (meter, day))"
                )
            con.execute(query, params)
            done.touch()
    readings = con.execute(f"SELECT count(*) FROM ({select})", params).fetchone()[0]
    return {"generate_s": time.perf_counter() - t, "readings": readings}


def _flow_files(root: Path, layout: str, fmt: str) -> list[Path]:
    return sorted((_layout_dir(root, layout, fmt) / "flow").rglob(f"*.{fmt}"))


def bare_layout(root: Path, layout: str, fmt: str) -> None:
    """DuckDB alone: the layout's files loaded into a table (parse, time zone) and scanned by meter."""
    db = root / f"bare_{layout}_{fmt}.duckdb"
    db.unlink(missing_ok=True)
    import duckdb

    files = [str(p) for p in _flow_files(root, layout, fmt)]
    con = duckdb.connect(str(db))
    con.execute("SET TimeZone = 'America/New_York'")
    con.execute("SET memory_limit = '1GB'")
    if fmt == "parquet":
        con.execute(
            "CREATE TABLE flow AS SELECT user_id, timestamp AS ts, value, unit FROM read_parquet(?)", [files]
        )
    else:
        con.execute(
            "CREATE TABLE flow AS SELECT user_id, "
            "timezone('America/New_York', CAST(timestamp AS TIMESTAMP)) AS ts, "
            "CAST(value AS DOUBLE) AS value, unit FROM read_csv(?, all_varchar = true)",
            [files],
        )
    con.execute("SELECT user_id, count(*), avg(value), max(ts) FROM flow GROUP BY user_id").fetchall()
    con.close()
    db.unlink(missing_ok=True)


def run_layouts(root: Path, meters: int, layouts, formats, rounds: int) -> dict:
    """Per layout and format, ``rounds`` rounds side by side: the bare load, `outfall run` with the
    files, and without them, each run in a new warehouse."""
    runs = root / "runs"
    runs.mkdir(exist_ok=True)
    base = runs / "none" / "w.duckdb"
    base.parent.mkdir(exist_ok=True)
    _fresh(base)
    _outfall(root / "no_flow_data", base)  # warm-up: file caches, first imports
    out = {}
    for layout in layouts:
        for fmt in formats:
            files = _flow_files(root, layout, fmt)
            wh = runs / f"{layout}_{fmt}" / "w.duckdb"
            wh.parent.mkdir(exist_ok=True)
            per_round = []
            for _ in range(rounds):
                bare_run = _child(
                    [
                        sys.executable,
                        "-m",
                        "benchmarks.ingest",
                        "--dir",
                        str(root),
                        "--bare-layout",
                        f"{layout}:{fmt}",
                    ]
                )
                _fresh(wh)
                with_flow = _outfall(_layout_dir(root, layout, fmt), wh)
                _fresh(base)
                without = _outfall(root / "no_flow_data", base)
                per_round.append({"bare": bare_run, "with": with_flow, "without": without})
            with __import__("duckdb").connect(str(wh), read_only=True) as con:
                stored = con.execute("SELECT count(*) FROM flow").fetchall()[0][0]
                quarantined = con.execute(
                    "SELECT count(*) FROM quarantine WHERE dataset = 'flow'"
                ).fetchall()[0][0]
            _fresh(wh)
            bare_s = _median([r["bare"]["seconds"] for r in per_round])
            marginal = _median([r["with"]["seconds"] - r["without"]["seconds"] for r in per_round])
            out[f"{layout}:{fmt}"] = {
                "layout": layout,
                "format": fmt,
                "files": len(files),
                "bytes": sum(p.stat().st_size for p in files),
                "rows": stored,
                "quarantined": quarantined,
                "bare_s": round(bare_s, 2),
                "marginal_s": round(marginal, 2),
                "ratio": round(
                    _median(
                        [
                            (r["with"]["seconds"] - r["without"]["seconds"]) / r["bare"]["seconds"]
                            for r in per_round
                        ]
                    ),
                    2,
                ),
                "rows_per_s": round(stored / marginal) if marginal > 0 else 0,
                "bare_rows_per_s": round(stored / bare_s) if bare_s > 0 else 0,
                "s_per_file": round(marginal / len(files), 4) if files else 0,
                "peak_rss_mb": round(max(r["with"]["peak_rss_mb"] for r in per_round)),
                "bare_peak_rss_mb": round(max(r["bare"]["peak_rss_mb"] for r in per_round)),
                "per_round": [
                    {k: round(r[k]["seconds"], 2) for k in ("bare", "with", "without")} for r in per_round
                ],
            }
    return out


def main_layouts(args) -> int:
    rows = _count(args.rows)
    meters = max(1, round(rows / (365 * 1440)))
    layouts = [x for x in args.layout.split(",") if x]
    formats = [x for x in args.formats.split(",") if x]
    root = args.dir / f"layouts_{meters}"
    root.mkdir(parents=True, exist_ok=True)
    gen = generate_layouts(root, meters, layouts, formats)
    res = run_layouts(root, meters, layouts, formats, args.rounds)
    figures = {
        "meters": meters,
        "readings": gen["readings"],
        "rounds": args.rounds,
        "generate_s": round(gen["generate_s"], 1),
        "layouts": res,
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(figures))
        return 0
    print(
        f"ingestion by file layout: {meters} meters x 365 days of 1-minute readings "
        f"({figures['readings']:,} readings: {meters * 525_600 - figures['readings']:,} minutes without "
        f"one, as generated); medians of {args.rounds} round(s); each round: the bare "
        "load and scan, then outfall run with the files and without them, side by side"
    )
    print(
        "| layout | format | files | MB | rows stored | bare (s) | marginal (s) | ratio | rows/s marginal "
        "| rows/s bare | s per file | peak RSS (MB) | bare peak RSS (MB) |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in res.values():
        print(
            f"| {r['layout']} | {r['format']} | {r['files']:,} | {r['bytes'] / 1e6:,.0f} | {r['rows']:,} "
            f"| {r['bare_s']:.2f} | {r['marginal_s']:.2f} | {r['ratio']:.2f} | {r['rows_per_s']:,} "
            f"| {r['bare_rows_per_s']:,} | {r['s_per_file']:.4f} | {r['peak_rss_mb']:,} "
            f"| {r['bare_peak_rss_mb']:,} |"
        )
    unaccounted = [
        f"{r['layout']} {r['format']}: {r['rows']:,} stored + {r['quarantined']:,} quarantined"
        for r in res.values()
        if r["rows"] + r["quarantined"] != figures["readings"]
    ]
    print(
        f"NOT every reading accounted for (of {figures['readings']:,}): " + "; ".join(unaccounted)
        if unaccounted
        else f"every layout: readings stored + quarantined = the {figures['readings']:,} in the files"
    )
    print(f"load average after {figures['load_average_after']} on {os.cpu_count()} CPUs")
    print(json.dumps(figures))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.ingest", description=__doc__.split("\n")[0])
    ap.add_argument("--meters", type=int, default=190)
    ap.add_argument("--days", type=int, default=365)
    ap.add_argument(
        "--csv-days", type=int, default=91, help="days of the CSV file (91 x 190 x 1440 = 24.9M rows)"
    )
    ap.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    ap.add_argument("--bare", choices=["parquet", "csv"], help=argparse.SUPPRESS)
    ap.add_argument(
        "--rounds", type=int, default=3, help="rounds of side-by-side runs per format (default 3)"
    )
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--layouts",
        action="store_true",
        help="the three file layouts side by side in both formats (see --rows, --layout, --formats)",
    )
    ap.add_argument(
        "--rows", default="10M", help="--layouts: readings in the year (default 10M; 100M possible)"
    )
    ap.add_argument("--layout", default=",".join(LAYOUTS), help="--layouts: which, comma-separated")
    ap.add_argument("--formats", default=",".join(FORMATS), help="--layouts: which, comma-separated")
    ap.add_argument("--bare-layout", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.bare:
        bare(args.dir, args.bare)
        return 0
    if args.bare_layout:
        bare_layout(args.dir, *args.bare_layout.split(":"))
        return 0
    if args.layouts:
        if "--rounds" not in (argv if argv is not None else sys.argv):
            args.rounds = 1
        return main_layouts(args)
    marker = args.dir / f"generated_{args.meters}_{args.days}_{args.csv_days}"
    if not marker.exists():
        shutil.rmtree(args.dir, ignore_errors=True)
    gen = generate(args.dir, args.meters, args.days, args.csv_days)
    marker.touch()
    counts = _readings(args.dir)
    res = run_all(args.dir, args.rounds)
    load = os.getloadavg()
    rows = {}
    for fmt in ("parquet", "csv"):
        rounds = res["rounds"][fmt]
        bare_s = [r["bare"]["seconds"] for r in rounds]
        with_s = [r["with"]["seconds"] for r in rounds]
        without_s = [r["without"]["seconds"] for r in rounds]
        marginal = [w - o for w, o in zip(with_s, without_s)]
        ratios = [m / b for m, b in zip(marginal, bare_s)]
        m_bare, m_marginal = _median(bare_s), _median(marginal)
        rows[fmt] = {
            "readings": counts[fmt],
            "rounds": len(rounds),
            "bare_s": round(m_bare, 2),
            "outfall_s": round(_median(with_s), 2),
            "without_s": round(_median(without_s), 2),
            "marginal_s": round(m_marginal, 2),
            "ratio": round(_median(ratios), 2),
            "ratios": [round(r, 2) for r in ratios],
            "bare_rows_per_s": round(counts[fmt] / m_bare),
            "outfall_rows_per_s": round(counts[fmt] / m_marginal) if m_marginal > 0 else 0,
            "bare_peak_rss_mb": round(max(r["bare"]["peak_rss_mb"] for r in rounds)),
            "outfall_peak_rss_mb": round(max(r["with"]["peak_rss_mb"] for r in rounds)),
            "flow_rows_stored": res[f"flow_rows_{fmt}"],
            "slugs": res[f"slugs_{fmt}"],
            "per_round": [
                {k: round(r[k]["seconds"], 2) for k in ("bare", "with", "without")} for r in rounds
            ],
        }
    appends = res["appends"]
    app_s = [a["append"]["seconds"] for a in appends]
    again_s = [a["again"]["seconds"] for a in appends]
    base_s = [a["without"]["seconds"] for a in appends]
    base = _median(base_s)
    year = rows["parquet"]["outfall_s"]
    year_marginal = rows["parquet"]["marginal_s"]
    day_s = [a - r for a, r in zip(app_s, again_s)]  # the day itself
    loaded_s = [r - b for r, b in zip(again_s, base_s)]  # what the loaded year adds to a run
    end_to_end = [100 * (a - b) / year_marginal for a, b in zip(app_s, base_s)]
    figures = {
        "meters": args.meters,
        "days": args.days,
        "csv_days": args.csv_days,
        **counts,
        "generate_s": round(gen["generate_s"], 1),
        "formats": rows,
        "outfall_without_flow_s": round(base, 2),
        "outfall_empty_rerun_s": round(res["outfall_empty_rerun"]["seconds"], 2),
        # medians of the APPEND_DAYS appended days, each run side by side with a re-run with
        # nothing new and a run without flow
        "appended_days": len(appends),
        "rerun_nothing_new_s": round(_median(again_s), 2),
        "append_one_day_s": round(_median(app_s), 2),
        "append_pct_of_full": round(100 * _median(app_s) / year, 1),
        "append_marginal_s": round(_median(day_s), 2),
        "append_marginal_s_each": [round(d, 2) for d in day_s],
        "append_marginal_pct_of_full_marginal": round(100 * _median(day_s) / year_marginal, 1),
        "append_peak_rss_mb": round(max(a["append"]["peak_rss_mb"] for a in appends)),
        # what a loaded year adds to every run, and the day's run against a run without flow
        "rerun_over_without_flow_s": round(_median(loaded_s), 2),
        "append_over_without_flow_pct_of_full_marginal": round(_median(end_to_end), 1),
        "append_over_without_flow_pct_each": [round(e, 1) for e in end_to_end],
        "load_average_after": [round(x, 2) for x in load],
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(figures))
        return 0
    w = 36
    print(
        f"ingestion benchmark: {args.meters} meters, 1-minute readings; Parquet {args.days} days "
        f"({counts['parquet']:,} readings, {counts['parquet_bytes'] / 1e6:,.0f} MB in "
        f"{counts['parquet_files']} monthly files), CSV {args.csv_days} days ({counts['csv']:,} rows, "
        f"{counts['csv_bytes'] / 1e6:,.0f} MB, one file)"
    )
    print(f"{'':{w}}{'Parquet':>14}{'CSV':>14}")
    line = lambda label, key, fmt="{:>14,.2f}": print(  # noqa: E731
        f"{label:{w}}" + "".join(fmt.format(rows[f][key]) for f in ("parquet", "csv"))
    )
    print(
        f"medians of {rows['parquet']['rounds']} rounds per format; each round: the bare load, then outfall "
        "run with the flow files and without them, side by side"
    )
    line("bare DuckDB load + scan (s)", "bare_s")
    line("outfall run with the flow files (s)", "outfall_s")
    line("outfall run without them (s)", "without_s")
    line("outfall marginal (s)", "marginal_s")
    line("ratio marginal / bare (median)", "ratio")
    for f, name in (("parquet", "Parquet"), ("csv", "CSV")):
        print(
            f"{'  ratio of each round, ' + name:{w}}"
            + " " * 4
            + ", ".join(f"{r:.2f}" for r in rows[f]["ratios"])
        )
    line("rows per second, bare", "bare_rows_per_s", "{:>14,.0f}")
    line("rows per second, outfall marginal", "outfall_rows_per_s", "{:>14,.0f}")
    line("peak RSS, bare (MB)", "bare_peak_rss_mb", "{:>14,.0f}")
    line("peak RSS, outfall run (MB)", "outfall_peak_rss_mb", "{:>14,.0f}")
    line("flow rows stored", "flow_rows_stored", "{:>14,.0f}")
    line("slug events found", "slugs", "{:>14,.0f}")
    print(
        f"one more day appended to the loaded year, {len(appends)} days one after another, medians: "
        f"{figures['append_one_day_s']:.2f} s end to end ({figures['append_pct_of_full']} % of the full "
        f"Parquet run); a re-run with nothing new {figures['rerun_nothing_new_s']:.2f} s, so the day itself "
        f"costs {figures['append_marginal_s']:.2f} s ({figures['append_marginal_pct_of_full_marginal']} % of "
        f"the full marginal; each day {figures['append_marginal_s_each']} s); peak RSS "
        f"{figures['append_peak_rss_mb']:.0f} MB"
    )
    print(
        f"a loaded year adds {figures['rerun_over_without_flow_s']:.2f} s to every run (a re-run with "
        "nothing new against a run without flow); the appended day's run less a run without flow is "
        f"{figures['append_over_without_flow_pct_of_full_marginal']} % of the full marginal (each day "
        f"{figures['append_over_without_flow_pct_each']} %)"
    )
    print(
        f"outfall run without flow: {base:.2f} s, re-run {figures['outfall_empty_rerun_s']:.2f} s; "
        f"load average after the benchmark {figures['load_average_after']} on {os.cpu_count()} CPUs"
    )
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
