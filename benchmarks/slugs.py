"""Benchmark of slug detection at scale.

    .venv/bin/python -m benchmarks.slugs --meters 190 --days 365

Generates ``meters`` x 1-minute flow readings for ``days`` local days (from
2025-01-01, America/New_York, across both daylight-saving changes) into
Parquet, plus one more day in a second file (the "append"), then prints side
by side, each phase in its own process (so peak memory is the phase's own):

- reference: a bare DuckDB scan of the same Parquet
  (``select user_id, count(*), avg(value), max(ts) ... group by user_id``);
- full: slug detection over the year with the SAME SQL files and driver as
  the ``slug_events`` asset (``assets.sewer.compliance.run_slug_detection``);
- append: the same warehouse after the extra day arrives, judged incrementally;
- verify (with --verify): a full detection over year + extra day, whose
  slug_events must equal the incremental result.

Targets (100M readings, 2 cores): full <= 5 s wall and <= 5 x reference, peak
memory <= 1 GB, append <= 5 % of full. Not a pytest test (tests run a tiny scale).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

START_EPOCH = 1735707600  # 2025-01-01 00:00 America/New_York (05:00 UTC)
DEFAULT_DIR = Path(tempfile.gettempdir()) / "outfall_bench_slugs"


def _duckdb(threads: int, memory_limit: str, database: str = ":memory:"):
    import duckdb

    con = duckdb.connect(database)
    con.execute("SET TimeZone = 'America/New_York'")
    con.execute(f"SET threads = {int(threads)}")
    con.execute("SET memory_limit = ?", [memory_limit])
    con.execute("SET preserve_insertion_order = false")
    return con


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _rss_mb() -> float:
    """This process's peak RSS: VmHWM, the high-water mark of its own memory since it started. Not
    ``ru_maxrss``, which on Linux starts from the peak of the process that started this one (see
    benchmarks/peak_rss.py): a phase started by a benchmark that had generated its files would
    measure at least the benchmark's size."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def files(out_dir: Path, meters: int, days: int) -> tuple[Path, Path]:
    stem = f"flow_{meters}m_{days}d"
    return out_dir / f"{stem}.parquet", out_dir / f"{stem}_append.parquet"


# Readings: a diurnal flow per meter with noise; on about 1 meter-day in 20 a
# discharge of 8 x the flow for 5-44 minutes (the longer ones are slugs); on
# about 1 meter-hour in 5,000 a missing reading. Every 10th meter has a permit
# normal_avg_flow_gpd.
_GENERATE = """
COPY (
    WITH g AS (
        SELECT i, i % $meters + 1 AS m, $first_minute + i // $meters AS k
        FROM range(0, $meters::BIGINT * $minutes) t(i)
    )
    SELECT printf('IU-%04d', m) AS user_id, 'flow' AS constituent,
           to_timestamp($start_epoch + k * 60) AS ts,
           (20 + (m * 37) % 180) * (1 + 0.4 * sin(2 * pi() * (k % 1440) / 1440.0))
               * (0.9 + (hash(i) % 1000) / 5000.0)
               * CASE WHEN hash(m * 100003 + k // 1440) % 20 = 0
                       AND k % 1440 >= hash(m * 100003 + k // 1440 + 7) % 1380
                       AND k % 1440 < hash(m * 100003 + k // 1440 + 7) % 1380 + 5
                                      + hash(m * 100003 + k // 1440 + 11) % 40
                      THEN 8 ELSE 1 END AS value
    FROM g
    WHERE hash(m * 7919 + k // 60) % 5000 <> 0 OR k % 60 <> 17
) TO '{path}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)
"""


def generate(out_dir: Path, meters: int, days: int, threads: int, memory_limit: str) -> dict:
    year, append = files(out_dir, meters, days)
    out_dir.mkdir(parents=True, exist_ok=True)
    t = time.perf_counter()
    con = _duckdb(threads, memory_limit)
    for path, first_day, n_days in ((year, 0, days), (append, days, 1)):
        if path.exists():
            continue
        tmp = path.with_suffix(".tmp")
        con.execute(
            _GENERATE.replace("{path}", str(tmp).replace("'", "''")),
            {
                "meters": meters,
                "minutes": n_days * 1440,
                "first_minute": first_day * 1440,
                "start_epoch": START_EPOCH,
            },
        )
        tmp.rename(path)
    return {"generate_s": time.perf_counter() - t}


def _views(con, parquet: list[Path], meters: int) -> None:
    paths = ", ".join("'" + str(p).replace("'", "''") + "'" for p in parquet)
    con.execute(
        f"CREATE OR REPLACE TEMP VIEW slug_readings AS "
        f"SELECT user_id, constituent, ts, value FROM read_parquet([{paths}])"
    )
    con.execute(
        "CREATE OR REPLACE TEMP TABLE slug_permits AS "
        "SELECT printf('IU-%04d', m) AS user_id, (20 + (m * 37) % 180) * 1440.0 AS normal_avg_flow_gpd "
        "FROM range(10, $meters + 1, 10) t(m)",
        {"meters": meters},
    )


def phase(args: argparse.Namespace) -> dict:
    year, append = files(args.dir, args.meters, args.days)
    out: dict = {}
    if args.phase == "reference":
        con = _duckdb(args.threads, args.memory_limit)
        query = f"SELECT user_id, count(*), avg(value), max(ts) FROM read_parquet('{year}') GROUP BY user_id"
        con.execute(query).fetchall()  # warm the file cache
        base = _rss_mb()
        t, c = time.perf_counter(), _cpu_s()
        rows = con.execute(query).fetchall()
        out = {
            "seconds": time.perf_counter() - t,
            "cpu_s": _cpu_s() - c,
            "rows": sum(r[1] for r in rows),
            "rss_before_mb": base,
        }
    else:
        # Imported here, in this phase's own process: the reference phase's memory is DuckDB's alone.
        from assets.common import schema_ddl
        from assets.sewer.compliance import run_slug_detection
        from outfall.rules import load_town
        from outfall.warehouse import ensure_schema

        rules = load_town().town
        db = args.dir / ("verify.duckdb" if args.phase == "verify" else "bench.duckdb")
        if args.phase in ("full", "verify"):
            for suffix in ("", ".wal"):
                Path(str(db) + suffix).unlink(missing_ok=True)
        con = _duckdb(args.threads, args.memory_limit, str(db))
        ensure_schema(con, schema_ddl())
        sources = [year] if args.phase == "full" else [year, append]
        _views(con, sources, args.meters)
        if args.phase == "full":  # warm the file cache as the reference does
            con.execute(f"SELECT count(*) FROM read_parquet('{year}') WHERE value < 0").fetchall()
        base = _rss_mb()
        since = None
        if args.phase == "append":
            import datetime as dt

            since = dt.date(2025, 1, 1) + dt.timedelta(days=args.days)
        timings: dict = {}
        t, c = time.perf_counter(), _cpu_s()
        con.execute("BEGIN TRANSACTION")
        info = run_slug_detection(con, rules, since, timings)
        con.execute("COMMIT")
        out = {
            "seconds": time.perf_counter() - t,
            "cpu_s": _cpu_s() - c,
            "rss_before_mb": base,
            "steps": timings,
            "mode": info.get("fallback", info["mode"]),
            "candidates": info["candidate_readings"],
            "slugs": con.execute("SELECT count(*) FROM slug_events").fetchone()[0],
            "gaps": con.execute("SELECT count(*) FROM slug_baseline_gaps").fetchone()[0],
            "rows": con.execute("SELECT sum(readings) FROM slug_daily_stats").fetchone()[0],
        }
        if args.phase == "verify":
            inc = str(args.dir / "bench.duckdb").replace("'", "''")
            con.execute(f"ATTACH '{inc}' AS inc (READ_ONLY)")
            cols = "user_id, constituent, start_at, end_at, duration_min, baseline, peak_value, readings"
            diff = con.execute(
                f"SELECT count(*) FROM ((SELECT {cols} FROM slug_events EXCEPT SELECT {cols} FROM "
                f"inc.slug_events) UNION ALL (SELECT {cols} FROM inc.slug_events EXCEPT SELECT {cols} FROM "
                "slug_events))"
            ).fetchone()[0]
            out["differences_from_incremental"] = diff
        con.close()
    out["peak_rss_mb"] = _rss_mb()
    return out


def _run_phase(args: argparse.Namespace, name: str) -> dict:
    cmd = [
        sys.executable,
        "-m",
        "benchmarks.slugs",
        "--phase",
        name,
        "--meters",
        str(args.meters),
        "--days",
        str(args.days),
        "--dir",
        str(args.dir),
        "--threads",
        str(args.threads),
        "--memory-limit",
        args.memory_limit,
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1])
    if proc.returncode != 0:
        raise SystemExit(f"phase {name} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.slugs", description=__doc__.split("\n")[0])
    ap.add_argument("--meters", type=int, default=190)
    ap.add_argument("--days", type=int, default=365)
    ap.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="where the Parquet and DuckDB files go")
    ap.add_argument("--threads", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--memory-limit", default="1GB")
    ap.add_argument("--verify", action="store_true", help="also judge year + extra day in full and compare")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    ap.add_argument("--phase", choices=["reference", "full", "append", "verify"], help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.phase:
        print(json.dumps(phase(args), default=str))
        return 0

    gen = generate(args.dir, args.meters, args.days, args.threads, args.memory_limit)
    ref = _run_phase(args, "reference")
    full = _run_phase(args, "full")
    app = _run_phase(args, "append")
    ver = _run_phase(args, "verify") if args.verify else None
    figures = {
        "meters": args.meters,
        "days": args.days,
        "readings": full["rows"],
        "threads": args.threads,
        "memory_limit": args.memory_limit,
        "generate_s": round(gen["generate_s"], 2),
        "reference_s": round(ref["seconds"], 3),
        "slug_detection_s": round(full["seconds"], 3),
        "ratio_to_reference": round(full["seconds"] / ref["seconds"], 2),
        "reference_cpu_s": round(ref["cpu_s"], 3),
        "slug_detection_cpu_s": round(full["cpu_s"], 3),
        "cpu_ratio_to_reference": round(full["cpu_s"] / ref["cpu_s"], 2),
        "append_one_day_cpu_s": round(app["cpu_s"], 3),
        "rows_per_s": round(full["rows"] / full["seconds"]),
        "reference_rows_per_s": round(ref["rows"] / ref["seconds"]),
        "peak_rss_mb_reference": round(ref["peak_rss_mb"]),
        "peak_rss_mb_slugs": round(full["peak_rss_mb"]),
        "rss_before_detection_mb": round(full["rss_before_mb"]),
        "append_one_day_s": round(app["seconds"], 3),
        "append_mode": app["mode"],
        "append_pct_of_full": round(100 * app["seconds"] / full["seconds"], 2),
        "slugs": app["slugs"],
        "candidate_readings": full["candidates"],
        "users_lacking_baseline": full["gaps"],
        "full_steps_s": {k: round(v, 3) for k, v in full["steps"].items()},
        "append_steps_s": {k: round(v, 3) for k, v in app["steps"].items()},
    }
    if ver:
        figures["verify_full_s"] = round(ver["seconds"], 3)
        figures["incremental_equals_full"] = ver["differences_from_incremental"] == 0
    if args.json:
        print(json.dumps(figures))
        return 0
    w = 34
    print(
        f"slug detection benchmark: {args.meters} meters x {args.days} days of 1-minute readings "
        f"= {full['rows']:,} readings; {args.threads} threads, memory_limit {args.memory_limit}"
    )
    print(f"{'':{w}}{'reference scan':>16}{'slug detection':>16}")
    print(f"{'wall time (s)':{w}}{ref['seconds']:>16.3f}{full['seconds']:>16.3f}")
    print(f"{'CPU time, all threads (s)':{w}}{ref['cpu_s']:>16.3f}{full['cpu_s']:>16.3f}")
    print(
        f"{'rows per second':{w}}"
        f"{ref['rows'] / ref['seconds']:>16,.0f}{full['rows'] / full['seconds']:>16,.0f}"
    )
    print(f"{'peak RSS of its process (MB)':{w}}{ref['peak_rss_mb']:>16.0f}{full['peak_rss_mb']:>16.0f}")
    print(f"{'ratio slug / reference (wall)':{w}}{'':>16}{full['seconds'] / ref['seconds']:>16.2f}")
    print(f"{'ratio slug / reference (CPU)':{w}}{'':>16}{full['cpu_s'] / ref['cpu_s']:>16.2f}")
    print(
        f"{'append one day (s)':{w}}{'':>16}{app['seconds']:>16.3f}  "
        f"({100 * app['seconds'] / full['seconds']:.2f} % of full; CPU {app['cpu_s']:.3f} s; mode "
        f"{app['mode']})"
    )
    if ver:
        print(
            f"{'full re-run with the extra day (s)':{w}}{'':>16}{ver['seconds']:>16.3f}  "
            f"incremental == full: {ver['differences_from_incremental'] == 0}"
        )
    print(
        f"slugs {app['slugs']:,}; readings re-read in pass 2: {full['candidates']:,}; "
        f"steps (s): {figures['full_steps_s']}"
    )
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
