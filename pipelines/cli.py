"""`outfall run | demo | export | verify | templates | new-town` (contract section 1).

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
import re
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

os.environ.setdefault("GX_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DAGSTER_DISABLE_TELEMETRY", "1")

# Only light modules here: Dagster, DuckDB, pandas and pydantic are imported by the commands that
# use them, so that a usage error, `outfall -h` or `outfall templates` answers at once.
from outfall.ingest.registry import all_datasets  # noqa: E402
from outfall.runlog import (  # noqa: E402
    close_log,
    explain,
    failure_line,
    group_failures,
    log_path,
    open_log,
    run_logger,
    trace_text,
)
from pipelines.runs import (  # noqa: E402, F401 - the tests reach these through the command's module
    FULL_PASS_EVERY,
    RunOutcome,
    _startup_objects_set_apart,
    _warm_for_letters,
    run_pipeline,
    today_in,
)

DEMO_AS_OF = "2026-11-30"
DEMO_SEED = 20261130


class UsageError(Exception):
    """Unusable arguments: exit 2 with this one-line message (and the usage, for a command line
    that cannot be parsed)."""

    def __init__(self, message: str, usage: str = ""):
        super().__init__(message)
        self.usage = usage


COMMANDS = "{run,demo,export,verify,templates,new-town,rules}"


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        # "--dat" is not "--data": an abbreviated option is refused, never guessed.
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:
        """Exit 2 with one line; with no command at all, the usage first (there is nothing else to go on)."""
        if f"required: {COMMANDS}" in message:
            raise UsageError(
                "say what to do: outfall run, outfall demo, outfall export, outfall verify, "
                "outfall templates, outfall new-town or outfall rules check (outfall -h for help)",
                usage=self.format_usage(),
            )
        raise UsageError(f"{message} (see {self.prog} -h)")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="outfall", description="Sewer and stormwater compliance pipeline.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar=COMMANDS)
    run = sub.add_parser("run", help="materialize every asset on the files under DIR into FILE.duckdb")
    run.add_argument("--data", required=True, metavar="DIR", help="folder holding one folder per dataset")
    run.add_argument(
        "--warehouse", required=True, metavar="FILE.duckdb", help="DuckDB file (created if missing)"
    )
    run.add_argument(
        "--as-of",
        metavar="YYYY-MM-DD",
        default="",
        help="day on which 'overdue' is judged (default: today in the town's time zone, its rules')",
    )
    run.add_argument(
        "--year", metavar="YYYY", default="", help="billing year (default: every year that has rates)"
    )
    run.add_argument(
        "--partition",
        metavar="YYYY-MM|YYYY",
        default="",
        help="run again just one month of readings (2026-03) or one billing year (2026), after "
        "loading new files, and the pages that show it",
    )
    run.add_argument(
        "--dashboards",
        metavar="DIR",
        default="",
        help="where HTML dashboards and letters go (default: beside the warehouse)",
    )
    run.add_argument(
        "--rules",
        metavar="DIR",
        default="",
        help="folder of the town's rules files, one <jurisdiction>.yaml each (default: OUTFALL_RULES_DIR, "
        "else the project's rules/)",
    )
    run.add_argument("--quiet", action="store_true", help="print nothing but errors")
    run.add_argument(
        "--verbose",
        action="store_true",
        help="also print the full trace of a failure (it is always in outfall.log beside the warehouse)",
    )
    demo = sub.add_parser(
        "demo", help="make the bundled sample town, run everything, write dashboards and reports"
    )
    demo.add_argument(
        "--out", metavar="DIR", default="demo_output", help="output folder (default: demo_output)"
    )
    demo.add_argument("--scale", type=float, default=1.0, help="size of the sample town (default 1.0)")
    demo.add_argument("--verbose", action="store_true", help="also print the full trace of a failure")
    export = sub.add_parser("export", help="CSV and XLSX of every output table, dashboards, letters")
    export.add_argument("--warehouse", required=True, metavar="FILE.duckdb")
    export.add_argument("--out", required=True, metavar="DIR")
    verify = sub.add_parser(
        "verify", help="check that every mailed letter is as it was issued, and the chain of records"
    )
    verify.add_argument("--warehouse", required=True, metavar="FILE.duckdb")
    verify.add_argument(
        "--dashboards",
        metavar="DIR",
        default="",
        help="where the letters are (default: the dashboards folder beside the warehouse)",
    )
    templates = sub.add_parser(
        "templates",
        help="write an empty form of every input folder: a CSV in each "
        "folder and one workbook, outfall_inputs.xlsx",
    )
    templates.add_argument(
        "--out",
        required=True,
        metavar="DIR",
        help="folder to write them in (new, or holding none of the forms yet)",
    )
    templates.add_argument(
        "--rules",
        metavar="DIR",
        default="",
        help="folder of the town's rules files, to key letterhead.yaml to (default: OUTFALL_RULES_DIR, else "
        "the project's rules/)",
    )
    new_town = sub.add_parser(
        "new-town",
        help="write a starting rules file for another town, every value to fill "
        "in, from the model town's rules",
    )
    new_town.add_argument(
        "name",
        metavar="NAME",
        help="the town's jurisdiction: lower-case letters, digits and _ (the file's name, e.g. springfield)",
    )
    new_town.add_argument(
        "--out",
        required=True,
        metavar="FILE.yaml",
        help="the file to write (rules/NAME.yaml; never over an existing file)",
    )
    new_town.add_argument(
        "--charges",
        choices=("units", "volume", "both", "none"),
        default="",
        help="how the town charges for sewer use: by a unit schedule, by the volume of water used, both, "
        "or none (asked when left out and the command runs in a terminal)",
    )
    rules = sub.add_parser(
        "rules",
        help="check a folder of rules files as outfall run reads it: every problem, and everything a run "
        "of them will need and lack",
    )
    rules_sub = rules.add_subparsers(
        dest="rules_command", required=True, parser_class=_Parser, metavar="{check}"
    )
    check = rules_sub.add_parser(
        "check",
        help="read every rules file as outfall run does: every problem, one line each, and what a run of "
        "them will need and lack (exit 2 when the folder would be refused)",
    )
    check.add_argument(
        "--rules",
        "--rules-dir",
        dest="rules",
        metavar="DIR",
        default="",
        help="folder of the rules files (default: OUTFALL_RULES_DIR, else the project's rules/)",
    )
    check.add_argument(
        "--town",
        metavar="NAME",
        default=None,
        help="the jurisdiction running Outfall (default: OUTFALL_TOWN, else the one file with sewer rules)",
    )
    return parser


# ---------------------------------------------------------------------------
# argument checks


def _check_data_dir(value: str) -> Path:
    path = Path(value)
    if not path.exists():
        raise UsageError(f"no such data folder: {value}")
    if not path.is_dir():
        raise UsageError(f"the data folder is not a folder: {value}")
    if not os.access(path, os.R_OK | os.X_OK):
        raise UsageError(f"the data folder cannot be read (permission denied): {value}")
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


# What a data folder may hold besides the input folders (docs/letters.md).
DATA_DIR_EXTRAS = ("letterhead.yaml", "letter_templates")


def folder_warnings(data_dir: Path) -> list[str]:
    """Plain warnings about a data folder that is likely not what the user meant: it holds
    none of the input folders, or folders whose names Outfall does not read (a typo?)."""
    import difflib

    known = list(all_datasets())
    entries = sorted(p.name for p in data_dir.iterdir() if p.is_dir() and not p.name.startswith("."))
    unknown = [n for n in entries if n not in known and n not in DATA_DIR_EXTRAS]
    lines = []
    for name in unknown:
        close = difflib.get_close_matches(name, known, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        lines.append(f"'{name}' in {data_dir} is not an input folder Outfall reads{hint}; it is left alone")
    if not any(n in known for n in entries):
        lines.append(
            f"{data_dir} holds none of the input folders ({', '.join(known[:4])}, ...: "
            "see docs/inputs.md); the run finds no data and its tables stay empty"
        )
    return lines


_CURRENT_LOG: list[Path] = []


@contextlib.contextmanager
def run_log(warehouse: Path) -> Iterator[None]:
    """The run log (outfall.log beside the warehouse) for the length of a command."""
    logger = open_log(warehouse)
    if logger is not None:
        _CURRENT_LOG.append(log_path(warehouse))
    try:
        yield
    except Exception:
        if logger is not None:
            logger.exception("outfall stopped on an unexpected error")
        raise
    finally:
        close_log()


@contextlib.contextmanager
def warehouse_lock(path: Path, check_free: bool = True) -> Iterator[None]:
    """One `outfall run` per warehouse at a time: a second one fails at once. ``check_free``: and no other
    program holds the DuckDB file (not for a run that waits in Dagster's queue: the daemon's step may)."""
    lock_path = path.with_name(path.name + ".lock")
    try:
        handle = open(lock_path, "a+")
    except OSError as exc:
        raise UsageError(f"the warehouse file is not writable: {path} ({exc.strerror})") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise UsageError(
            f"the warehouse {path} is in use by another outfall run; wait for it to finish"
        ) from None
    try:
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        if check_free:
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
            raise UsageError(
                f"the warehouse {path} is open in another program (DuckDB lock); close it and retry"
            ) from None
        raise UsageError(f"cannot open the warehouse {path}: {text}") from None
    except duckdb.Error as exc:
        raise UsageError(f"{path} is not a DuckDB warehouse: {str(exc).splitlines()[0]}") from None


# ---------------------------------------------------------------------------
# run


def _check_partition(value: str) -> str:
    if not value:
        return ""
    if re.fullmatch(r"\d{4}", value) or (re.fullmatch(r"\d{4}-\d{2}", value) and 1 <= int(value[5:]) <= 12):
        return value
    raise UsageError(f"--partition '{value}' is neither a month (YYYY-MM) nor a billing year (YYYY)")


def _sql(name: str) -> str:
    """A statement of sql/ (not through outfall.warehouse, which imports pandas: a run with nothing new
    answers without it)."""
    from outfall.paths import sql_path

    return sql_path(name).read_text(encoding="utf-8")


def _summary(warehouse: Path, outcome: RunOutcome) -> str:
    import duckdb  # only once a run has ended

    def count(con, table: str) -> int:
        return int(con.execute(f'SELECT count(*) FROM "{table}"').fetchall()[0][0])

    sql = _sql
    if outcome.nothing_new:
        first = (
            f"outfall: nothing new since the last run (the same files, rules, day and folders): 0 assets "
            f"materialized in {outcome.seconds:.1f} s; {warehouse} is as it was"
        )
    else:
        first = (
            f"outfall: {len(set(outcome.materialized))} assets materialized in {outcome.seconds:.1f} s "
            f"into {warehouse}" + ("" if outcome.materialized else ": no file changed since the last run")
        )
    lines = [first]
    for pause in (0.5, 1, 2, 4, None):  # a Dagster run of the queue may be writing it: a moment
        try:
            con = duckdb.connect(str(warehouse), read_only=True)
            break
        except duckdb.IOException:
            if pause is None:
                lines.append("  (its tables are being written by a Dagster run: they are in the UI)")
                return "\n".join(lines)
            time.sleep(pause)
    try:
        rows = dict((d, (r, k, q)) for d, r, k, q in con.execute(sql("select_ingested_totals")).fetchall())
        lines.append(f"  {'dataset':<22}{'read':>10}{'kept':>10}{'quarantined':>13}")
        for name in all_datasets():
            r, k, q = rows.get(name, (0, 0, 0))
            lines.append(f"  {name:<22}{int(r):>10}{int(k):>10}{int(q):>13}")
        outputs = [
            "discharge_violations",
            "slug_events",
            "infiltration_results",
            "sewer_bills",
            "swppp_inspection_findings",
            "snc_determinations",
            "quarantine",
        ]
        existing = {r[0] for r in con.execute(sql("select_table_names")).fetchall()}
        counts = [f"{t} {count(con, t)}" for t in outputs if t in existing]
        lines.append("  outputs: " + ", ".join(counts))
    finally:
        con.close()
    if outcome.checks_failed:
        lines.append(
            f"  checks that found problems ({len(outcome.checks_failed)}): "
            + ", ".join(sorted(outcome.checks_failed)[:12])
            + (" ..." if len(outcome.checks_failed) > 12 else "")
        )
    return "\n".join(lines)


def _check_rules(rules: str = ""):
    """Every rules file and the town running Outfall, before any asset starts, as ``python -m outfall.rules
    check`` checks them: a bad file, or a folder that leaves the town open, is a one-line exit 2 (the first
    problem; the check lists them all). ``rules``: the folder --rules names (it becomes the run's
    OUTFALL_RULES_DIR, so that every part of the run reads the same rules)."""
    from outfall.rules import RulesError  # pydantic and the rules' models: not for a usage error
    from outfall.rules.check import load_checked
    from outfall.rules.town import RULES_DIR_VARIABLE, default_rules_dir, default_town

    if rules:
        if not Path(rules).is_dir():
            raise UsageError(f"no such rules folder: {rules}")
        os.environ[RULES_DIR_VARIABLE] = str(Path(rules).resolve())
    try:
        return load_checked(default_rules_dir() or None, default_town())
    except RulesError as exc:
        raise UsageError(str(exc)) from None


def cmd_run(args) -> int:
    data_dir = _check_data_dir(args.data)
    warehouse = _check_warehouse(args.warehouse)
    as_of = _check_as_of(args.as_of)
    year = _check_year(args.year)
    partition = _check_partition(args.partition)
    town = _check_rules(args.rules)
    from outfall.rules.town import default_rules_dir
    from pipelines.queue import server_of

    queued = server_of(os.environ.get("DAGSTER_HOME"))  # its web server answers: its queue runs them
    with warehouse_lock(warehouse, check_free=queued is None), run_log(warehouse):
        for line in folder_warnings(data_dir):
            print(f"outfall: warning: {line}", file=sys.stderr)
        # "Today" is read once, here: the run's fingerprint and every asset judge by the same day.
        outcome = run_pipeline(
            data_dir,
            warehouse,
            as_of or today_in(town),
            year,
            args.dashboards,
            quiet=args.quiet,
            partition=partition,
            rules_dir=default_rules_dir(),
            queued=queued,
        )
        return _report(outcome, warehouse, quiet=args.quiet, verbose=args.verbose)


def _report(outcome: RunOutcome, warehouse: Path, quiet: bool = False, verbose: bool = False) -> int:
    log = log_path(warehouse) if run_logger().handlers else None
    in_use = outcome.in_use_line() if (outcome.failures or outcome.in_use) else ""
    if in_use:  # not a failure of the data or of Outfall: another writer; nothing is half-written
        print(f"outfall: {in_use}", file=sys.stderr)
        return 2
    if outcome.failures:
        for steps, error in group_failures(outcome.failures, warehouse):
            if verbose:
                print(trace_text(error).rstrip(), file=sys.stderr)
            print(failure_line(steps, error, warehouse, log), file=sys.stderr)
        return 1
    if not outcome.ok:
        where = f"; the details are in {log}" if log else ""
        if outcome.run_error is not None and explain(outcome.run_error).kind == "interrupted":
            print(
                "outfall: interrupted before any asset had started: every table is as it was; run "
                f"again{where}",
                file=sys.stderr,
            )
        else:
            print(f"outfall: the run failed before any asset could report why{where}", file=sys.stderr)
        return 1
    # A check that could not run is a failure of the tool, not a finding about the data: said on
    # stderr even with --quiet (the run still exits 0: every asset materialized).
    for name, error in outcome.checks_not_run:
        asset, _, check = name.partition(":")
        why = explain(error).why or "see the check in the Dagster UI"
        print(
            f"outfall: warning: the check {check} of the {asset} table could not run, so this run has no "
            f"result for it: {why}",
            file=sys.stderr,
        )
    if not quiet:
        print(_summary(warehouse, outcome))
    return 0


# ---------------------------------------------------------------------------
# demo and export


def cmd_demo(args) -> int:
    from outfall.demo.generate import generate  # numpy, pandas and pyarrow: only for the demo
    from outfall.rules.town import default_rules_dir

    _check_rules()
    out = Path(args.out).resolve()
    data_dir = out / "data"
    warehouse = out / "outfall.duckdb"
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create {out}: {exc.strerror}") from None
    started = time.perf_counter()
    counts = generate(data_dir, seed=DEMO_SEED, scale=args.scale, year=int(DEMO_AS_OF[:4]))
    print(
        f"outfall demo: sample town written to {data_dir} in {time.perf_counter() - started:.1f} s "
        f"({sum(counts.values())} rows in {len(counts)} datasets)"
    )
    with warehouse_lock(warehouse), run_log(warehouse):
        outcome = run_pipeline(data_dir, warehouse, DEMO_AS_OF, 0, rules_dir=default_rules_dir())
        code = _report(outcome, warehouse, verbose=args.verbose)
    if code:
        return code
    from outfall.exports_folder import export_all  # DuckDB, pyarrow and openpyxl: only to export
    from outfall.output_folders import output_paths

    written = export_all(warehouse, out / "exports")
    print(f"outfall demo: as of {DEMO_AS_OF}; {written} tables exported to {out / 'exports'}")
    index = (output_paths(str(warehouse)).dashboards or out / "dashboards") / "index.html"
    if index.exists():
        print(f"outfall demo: open {index} in a browser")
    return 0


def cmd_export(args) -> int:
    warehouse = _check_warehouse(args.warehouse, must_exist=True)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create {out}: {exc.strerror}") from None
    from outfall.exports_folder import export_all  # DuckDB, pyarrow and openpyxl: only to export

    written = export_all(warehouse, out)
    print(f"outfall export: {written} tables written to {out}")
    return 0


def cmd_verify(args) -> int:
    """Exit 0 when every mailed document's files and the chain of records match; 1 with one line naming the
    first document that does not (contract 6.2)."""
    import duckdb

    # DuckDB and pandas: only to verify
    from outfall.output_folders import output_paths
    from outfall.records import verify_records

    warehouse = _check_warehouse(args.warehouse, must_exist=True)
    try:
        con = duckdb.connect(str(warehouse), read_only=True)
    except duckdb.Error as exc:
        raise UsageError(f"cannot open the warehouse {args.warehouse}: {str(exc).splitlines()[0]}") from None
    try:
        if args.dashboards:
            dashboards = Path(args.dashboards).resolve()
            if not dashboards.is_dir():
                raise UsageError(f"no such dashboards folder: {args.dashboards}")
        else:  # beside the warehouse, wherever it now is (contract 7.3): a copy checks its own folder
            dashboards = output_paths(str(warehouse)).dashboards
        try:
            problems = verify_records(con, dashboards)
            total = con.execute("SELECT count(*) FROM documents_issued").fetchall()[0][0]
        except duckdb.CatalogException:
            raise UsageError(
                f"{args.warehouse} holds no record of mailed documents (run outfall run first)"
            ) from None
    finally:
        con.close()
    if problems:
        print(f"outfall verify: {problems[0].line()}", file=sys.stderr)
        return 1
    print(
        f"outfall verify: {total} mailed document{'s' if total != 1 else ''} as issued, and the chain of "
        "records is unbroken"
    )
    return 0


def cmd_templates(args) -> int:
    """The empty forms of every input folder under --out; never over a file already there."""
    from outfall.input_templates import (
        LETTERHEAD,
        WORKBOOK,
        template_paths,
        write_templates,
    )  # openpyxl: only for the forms
    from outfall.rules.dated import RulesError  # pydantic: only for the commands that read the rules

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"the output folder is a file, not a folder: {args.out}")
    there = [p for p in template_paths(out) if p.exists() or p.is_symlink()]
    if there:
        raise UsageError(
            f"{there[0]} exists already; templates are written only where none of them is, so that "
            "no data are overwritten: give a new folder"
        )
    if args.rules and not Path(args.rules).is_dir():
        raise UsageError(f"no such rules folder: {args.rules}")
    try:
        out.mkdir(parents=True, exist_ok=True)
        written = write_templates(out, args.rules or None)
    except RulesError as exc:
        raise UsageError(
            f"letterhead.yaml is keyed to the rules found, and they cannot be read: {exc}"
        ) from None
    except OSError as exc:
        raise UsageError(f"cannot write the templates in {args.out}: {exc.strerror or exc}") from None
    print(
        f"outfall templates: {len(written) - 2} folders, each with an empty CSV form, {WORKBOOK} "
        f"(a sheet per folder) and {LETTERHEAD} (fill it in before the first run) written to {out}"
    )
    return 0


def cmd_rules(args) -> int:
    """``outfall rules check``: every problem of a folder of rules files, and what a run of them will need
    and lack; exit 2 when ``outfall run`` would refuse the folder."""
    from outfall.rules.__main__ import check_command  # pydantic and YAML: only for this command

    if args.rules and not Path(args.rules).exists():
        raise UsageError(f"no such rules folder: {args.rules}")
    return check_command(args.rules or None, args.town)


def cmd_new_town(args) -> int:
    """A starting rules file for another town, from the models: every section and key, each value to
    fill in and each key explained; never over a file already there."""
    from outfall.rules.new_town import (
        CHARGE_MODELS,
        NewTownError,
        write_new_town,
    )  # pydantic and YAML: only for this command

    charges = args.charges or _ask_charges(CHARGE_MODELS)
    try:
        path, empty = write_new_town(args.name, Path(args.out), charges)
    except NewTownError as exc:
        raise UsageError(str(exc)) from None
    print(
        f"outfall new-town: {path} written (charge model: {charges}): {empty} values to fill in from the "
        f"town's ordinances, or to leave empty where they state none (each key is explained above it); "
        f"check it with outfall rules check --rules {path.parent}; the guide is docs/adopt.md"
    )
    return 0


def _ask_charges(models: tuple[str, ...]) -> str:
    """The charge model, asked in a terminal; a usage error elsewhere (a script must say --charges)."""
    if not sys.stdin.isatty():
        raise UsageError(f"say how the town charges for sewer use: --charges {'|'.join(models)}")
    question = (
        "How does the town charge for sewer use? units (a unit schedule), volume (the water used), "
        f"both, or none [{'/'.join(models)}]: "
    )
    for _ in range(3):
        answer = input(question).strip().lower()
        if answer in models:
            return answer
    raise UsageError(f"no charge model chosen: --charges {'|'.join(models)}")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        handler = {
            "run": cmd_run,
            "demo": cmd_demo,
            "export": cmd_export,
            "verify": cmd_verify,
            "templates": cmd_templates,
            "new-town": cmd_new_town,
            "rules": cmd_rules,
        }[args.command]
        return handler(args)
    except UsageError as exc:
        if exc.usage:
            print(exc.usage.rstrip(), file=sys.stderr)
        print(f"outfall: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("outfall: interrupted; every table is as it was before the interrupted asset", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - never a bare traceback
        where = f" (the details are in {_CURRENT_LOG[-1]})" if _CURRENT_LOG else ""
        print(
            f"outfall: stopped on an error Outfall did not expect: {explain(exc).why}{where}", file=sys.stderr
        )
        if os.environ.get("OUTFALL_DEBUG") or "--verbose" in (argv if argv is not None else sys.argv):
            raise
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
