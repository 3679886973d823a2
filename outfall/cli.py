"""`outfall run | demo | export` (contract section 1).

Exit status: 0 when every asset materialized (whatever violations were found
and however many rows were quarantined); 1 when an asset failed, naming it and
why on stderr; 2 for unusable arguments, with a one-line message. Never a bare
traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import fcntl
import os
import shutil
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

os.environ.setdefault("GX_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DAGSTER_DISABLE_TELEMETRY", "1")

DEMO_AS_OF = "2026-11-30"
DEMO_SEED = 20261130


class UsageError(Exception):
    """Unusable arguments: exit 2 with this one-line message."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="outfall", description="Sewer and stormwater compliance pipeline.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    run = sub.add_parser("run", help="materialize every asset on the files under DIR into FILE.duckdb")
    run.add_argument("--data", required=True, metavar="DIR", help="folder holding one folder per dataset")
    run.add_argument("--warehouse", required=True, metavar="FILE.duckdb", help="DuckDB file (created if missing)")
    run.add_argument("--as-of", metavar="YYYY-MM-DD", default="",
                     help="day on which 'overdue' is judged (default: today, America/New_York)")
    run.add_argument("--year", metavar="YYYY", default="", help="billing year (default: every year that has rates)")
    run.add_argument("--dashboards", metavar="DIR", default="",
                     help="where HTML dashboards and letters go (default: beside the warehouse)")
    run.add_argument("--quiet", action="store_true", help="print nothing but errors")
    demo = sub.add_parser("demo", help="make the bundled sample town, run everything, write dashboards and reports")
    demo.add_argument("--out", metavar="DIR", default="demo_output", help="output folder (default: demo_output)")
    demo.add_argument("--scale", type=float, default=1.0, help="size of the sample town (default 1.0)")
    export = sub.add_parser("export", help="CSV and XLSX of every output table, dashboards, letters")
    export.add_argument("--warehouse", required=True, metavar="FILE.duckdb")
    export.add_argument("--out", required=True, metavar="DIR")
    return parser


# ---------------------------------------------------------------------------
# argument checks


def _check_data_dir(value: str) -> Path:
    path = Path(value)
    if not path.exists():
        raise UsageError(f"no such data folder: {value}")
    if not path.is_dir():
        raise UsageError(f"the data folder is not a folder: {value}")
    return path.resolve()


def _check_warehouse(value: str, must_exist: bool = False) -> Path:
    path = Path(value)
    if path.exists() and path.is_dir():
        raise UsageError(f"the warehouse is a folder, not a file: {value}")
    if must_exist:
        if not path.exists():
            raise UsageError(f"no such warehouse file: {value}")
        return path.resolve()
    parent = path.parent if str(path.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create the warehouse folder {parent}: {exc.strerror}") from None
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"the warehouse file is not writable: {value}")
    return path.resolve()


def _check_as_of(value: str) -> str:
    if not value:
        return ""
    try:
        return dt.date.fromisoformat(value).isoformat()
    except ValueError:
        raise UsageError(f"--as-of '{value}' is not a date (YYYY-MM-DD)") from None


def _check_year(value: str) -> int:
    if not value:
        return 0
    if not value.isdigit() or not 1900 <= int(value) <= 2200:
        raise UsageError(f"--year '{value}' is not a year (YYYY)")
    return int(value)


@contextlib.contextmanager
def warehouse_lock(path: Path) -> Iterator[None]:
    """One `outfall run` per warehouse at a time: a second one fails at once."""
    lock_path = path.with_name(path.name + ".lock")
    try:
        handle = open(lock_path, "a+")
    except OSError as exc:
        raise UsageError(f"the warehouse file is not writable: {path} ({exc.strerror})") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise UsageError(f"the warehouse {path} is in use by another outfall run; wait for it to finish") from None
    try:
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        _check_duckdb_free(path)
        yield
    finally:
        fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()


def _check_duckdb_free(path: Path) -> None:
    import duckdb

    try:
        duckdb.connect(str(path)).close()
    except duckdb.IOException as exc:
        text = str(exc).splitlines()[0]
        if "lock" in text.lower():
            raise UsageError(f"the warehouse {path} is open in another program (DuckDB lock); close it and retry") from None
        raise UsageError(f"cannot open the warehouse {path}: {text}") from None
    except duckdb.Error as exc:
        raise UsageError(f"{path} is not a DuckDB warehouse: {str(exc).splitlines()[0]}") from None


# ---------------------------------------------------------------------------
# run


@dataclass
class RunOutcome:
    ok: bool
    materialized: list[str] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)  # (asset or step, message)
    checks_failed: list[str] = field(default_factory=list)
    seconds: float = 0.0


def run_pipeline(data_dir: Path, warehouse: Path, as_of: str = "", year: int = 0,
                 dashboards: str = "", quiet: bool = False) -> RunOutcome:
    """Materialize every asset and check, in process, into ``warehouse``."""
    warnings.filterwarnings("ignore")
    from dagster import DagsterEventType, DagsterInstance, materialize

    from outfall import progress
    from outfall.warehouse import kept_open
    from pipelines.definitions import all_assets, all_checks, build_resources

    started = time.perf_counter()
    resources = build_resources(str(warehouse), data_dir=str(data_dir), as_of=as_of, year=year,
                                dashboards_dir=dashboards)
    with DagsterInstance.ephemeral() as instance, progress.shown(quiet), kept_open(warehouse):
        progress.attach(instance)
        result = materialize(
            [*all_assets, *all_checks],
            resources=resources,
            instance=instance,
            raise_on_error=False,
            run_config={"loggers": {"console": {"config": {"log_level": "ERROR"}}}},
            tags={"outfall/command": "run"},
        )
    outcome = RunOutcome(ok=result.success, seconds=time.perf_counter() - started)
    for event in result.all_events:
        if event.event_type == DagsterEventType.ASSET_MATERIALIZATION:
            outcome.materialized.append(event.asset_key.to_user_string())
        elif event.event_type == DagsterEventType.STEP_FAILURE:
            error = event.step_failure_data.error if event.step_failure_data else None
            message = _error_line(error)
            outcome.failures.append((event.step_key or "?", message))
        elif event.event_type == DagsterEventType.ASSET_CHECK_EVALUATION:
            data = event.event_specific_data
            if data is not None and not data.passed:
                outcome.checks_failed.append(f"{data.asset_key.to_user_string()}:{data.check_name}")
    return outcome


def _error_line(error) -> str:
    """The most specific message of a Dagster error chain, on one line."""
    if error is None:
        return "unknown error"
    while getattr(error, "cause", None) is not None and "Error occurred while executing" in (error.message or ""):
        error = error.cause
    message = (error.message or "").strip().splitlines()
    text = message[-1] if message else error.cls_name or "error"
    for line in message:
        if line.strip():
            text = line.strip()
            break
    return text


def _summary(warehouse: Path, outcome: RunOutcome) -> str:
    import duckdb

    from outfall.ingest.datasets import DATASETS

    lines = [f"outfall: {len(set(outcome.materialized))} assets materialized in {outcome.seconds:.1f} s "
             f"into {warehouse}"]
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        rows = dict((d, (r, k, q)) for d, r, k, q in con.execute(
            "SELECT dataset, sum(rows_read), sum(rows_kept), sum(rows_quarantined) FROM ingested_files "
            "GROUP BY dataset").fetchall())
        lines.append(f"  {'dataset':<22}{'read':>10}{'kept':>10}{'quarantined':>13}")
        for name in DATASETS:
            r, k, q = rows.get(name, (0, 0, 0))
            lines.append(f"  {name:<22}{int(r):>10}{int(k):>10}{int(q):>13}")
        outputs = ["discharge_violations", "slug_events", "infiltration_results", "sewer_bills",
                   "swppp_inspection_findings", "snc_determinations", "quarantine"]
        existing = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
        counts = [f"{t} {con.execute(f'SELECT count(*) FROM {t}').fetchall()[0][0]}" for t in outputs if t in existing]
        lines.append("  outputs: " + ", ".join(counts))
    finally:
        con.close()
    if outcome.checks_failed:
        lines.append(f"  checks that found problems ({len(outcome.checks_failed)}): "
                     + ", ".join(sorted(outcome.checks_failed)[:12])
                     + (" ..." if len(outcome.checks_failed) > 12 else ""))
    return "\n".join(lines)


def cmd_run(args) -> int:
    data_dir = _check_data_dir(args.data)
    warehouse = _check_warehouse(args.warehouse)
    as_of = _check_as_of(args.as_of)
    year = _check_year(args.year)
    with warehouse_lock(warehouse):
        outcome = run_pipeline(data_dir, warehouse, as_of, year, args.dashboards, quiet=args.quiet)
    return _report(outcome, warehouse, quiet=args.quiet)


def _report(outcome: RunOutcome, warehouse: Path, quiet: bool = False) -> int:
    if outcome.failures:
        for step, message in outcome.failures:
            print(f"outfall: asset {step} failed: {message}", file=sys.stderr)
        return 1
    if not outcome.ok:
        print("outfall: the run failed before any asset could report why", file=sys.stderr)
        return 1
    if not quiet:
        print(_summary(warehouse, outcome))
    return 0


# ---------------------------------------------------------------------------
# demo and export


def cmd_demo(args) -> int:
    from outfall.demo.generate import generate

    out = Path(args.out).resolve()
    data_dir = out / "data"
    warehouse = out / "outfall.duckdb"
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create {out}: {exc.strerror}") from None
    started = time.perf_counter()
    counts = generate(data_dir, seed=DEMO_SEED, scale=args.scale, year=int(DEMO_AS_OF[:4]))
    print(f"outfall demo: sample town written to {data_dir} in {time.perf_counter() - started:.1f} s "
          f"({sum(counts.values())} rows in {len(counts)} datasets)")
    with warehouse_lock(warehouse):
        outcome = run_pipeline(data_dir, warehouse, DEMO_AS_OF, 0, str(out / "dashboards"))
    code = _report(outcome, warehouse)
    if code:
        return code
    written = export_all(warehouse, out / "exports")
    print(f"outfall demo: as of {DEMO_AS_OF}; {written} tables exported to {out / 'exports'}")
    index = out / "dashboards" / "index.html"
    if index.exists():
        print(f"outfall demo: open {index} in a browser")
    return 0


EXPORT_SKIP_PREFIXES = ("_",)
XLSX_MAX_ROWS = 100_000  # larger tables go to CSV only (the billing register has its own workbook)


def input_tables() -> set[str]:
    from outfall.ingest.registry import all_datasets

    return set(all_datasets()) | {"ingested_files"}


def export_all(warehouse: Path, out: Path) -> int:
    """Every output table as CSV and as one XLSX workbook; dashboards and letters copied."""
    import duckdb
    import pandas as pd

    out.mkdir(parents=True, exist_ok=True)
    (out / "csv").mkdir(exist_ok=True)
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        con.execute("SET TimeZone = 'America/New_York'").fetchall()
        tables = [r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' "
            "ORDER BY table_name").fetchall()]
        inputs = input_tables()
        tables = [t for t in tables if t not in inputs and not t.endswith("_history")
                  and not t.startswith(EXPORT_SKIP_PREFIXES)]
        written = 0
        with pd.ExcelWriter(out / "outfall_tables.xlsx", engine="openpyxl") as xlsx:
            for table in tables:
                frame = con.execute(f'SELECT * FROM "{table}"').df()
                frame.to_csv(out / "csv" / f"{table}.csv", index=False)
                if len(frame) <= XLSX_MAX_ROWS:
                    sheet = frame.copy()
                    for col in sheet.columns:
                        if isinstance(sheet[col].dtype, pd.DatetimeTZDtype):
                            sheet[col] = sheet[col].dt.tz_localize(None)
                    sheet.to_excel(xlsx, sheet_name=table[:31], index=False)
                written += 1
        try:
            from outfall.billing_export import export_register

            export_register(con, out / "billing")
        except ImportError:
            pass
    finally:
        con.close()
    for name in ("dashboards",):  # pages, with letters/sewer and letters/stormwater inside
        src = warehouse.parent / name
        if src.is_dir() and src.resolve() != (out / name).resolve():
            shutil.copytree(src, out / name, dirs_exist_ok=True)
    return written


def cmd_export(args) -> int:
    warehouse = _check_warehouse(args.warehouse, must_exist=True)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create {out}: {exc.strerror}") from None
    written = export_all(warehouse, out)
    print(f"outfall export: {written} tables written to {out}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        handler = {"run": cmd_run, "demo": cmd_demo, "export": cmd_export}[args.command]
        return handler(args)
    except UsageError as exc:
        print(f"outfall: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("outfall: interrupted; every table is as it was before the interrupted asset", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - never a bare traceback
        print(f"outfall: unexpected error: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}",
              file=sys.stderr)
        if os.environ.get("OUTFALL_DEBUG"):
            raise
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
