"""`outfall demo | export | verify | templates | new-town | rules check` (contract section 1): each command
a function of its parsed arguments that returns the exit status. Each imports what it needs (DuckDB,
pandas, openpyxl, pydantic) when it runs."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from pipelines.parser import UsageError
from pipelines.preflight import check_rules, check_warehouse, run_log, warehouse_lock
from pipelines.report import report
from pipelines.runs import run_pipeline

DEMO_AS_OF = "2026-11-30"
DEMO_SEED = 20261130


def cmd_demo(args) -> int:
    from outfall.demo.generate import generate  # numpy, pandas and pyarrow: only for the demo
    from outfall.rules.town import default_rules_dir

    check_rules()
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
        code = report(outcome, warehouse, verbose=args.verbose)
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
    warehouse = check_warehouse(args.warehouse, must_exist=True)
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

    warehouse = check_warehouse(args.warehouse, must_exist=True)
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
