"""The `outfall` command's arguments: one parser, a function per command that adds its arguments
(contract section 1). Light: nothing here imports Dagster, DuckDB, pandas or pydantic."""

from __future__ import annotations

import argparse


class UsageError(Exception):
    """Unusable arguments: exit 2 with this one-line message (and the usage, for a command line
    that cannot be parsed)."""

    def __init__(self, message: str, usage: str = ""):
        super().__init__(message)
        self.usage = usage


COMMANDS = "{run,demo,export,verify,templates,new-town,rules}"
RULES_DEFAULT = "(default: OUTFALL_RULES_DIR, else the project's rules/)"


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


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="outfall", description="Sewer and stormwater compliance pipeline.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar=COMMANDS)
    for add in (_run, _demo, _export, _verify, _templates, _new_town, _rules):
        add(sub)
    return parser


def _run(sub) -> None:
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
        help=f"folder of the town's rules files, one <jurisdiction>.yaml each {RULES_DEFAULT}",
    )
    run.add_argument("--quiet", action="store_true", help="print nothing but errors")
    run.add_argument(
        "--verbose",
        action="store_true",
        help="also print the full trace of a failure (it is always in outfall.log beside the warehouse)",
    )


def _demo(sub) -> None:
    demo = sub.add_parser(
        "demo", help="make the bundled sample town, run everything, write dashboards and reports"
    )
    demo.add_argument(
        "--out", metavar="DIR", default="demo_output", help="output folder (default: demo_output)"
    )
    demo.add_argument("--scale", type=float, default=1.0, help="size of the sample town (default 1.0)")
    demo.add_argument("--verbose", action="store_true", help="also print the full trace of a failure")


def _export(sub) -> None:
    export = sub.add_parser("export", help="CSV and XLSX of every output table, dashboards, letters")
    export.add_argument("--warehouse", required=True, metavar="FILE.duckdb")
    export.add_argument("--out", required=True, metavar="DIR")


def _verify(sub) -> None:
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


def _templates(sub) -> None:
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
        help=f"folder of the town's rules files, to key letterhead.yaml to {RULES_DEFAULT}",
    )


def _new_town(sub) -> None:
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


def _rules(sub) -> None:
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
        help=f"folder of the rules files {RULES_DEFAULT}",
    )
    check.add_argument(
        "--town",
        metavar="NAME",
        default=None,
        help="the jurisdiction running Outfall (default: OUTFALL_TOWN, else the one file with sewer rules)",
    )
