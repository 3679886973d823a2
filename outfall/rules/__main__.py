"""``python -m outfall.rules check | schema | docs``.

- ``check [--rules DIR] [--town NAME]`` (also ``outfall rules check``): read every rules file of the folder
  as ``outfall run`` reads it; print each file's summary (what it leaves unstated, what a run will leave
  not judged for want of it), or every problem, one line each, in the order of the files and their lines,
  including what a run will need and the file lacks, and exit 2.
- ``schema``: regenerate ``rules/schema.json`` from the models.
- ``docs``: regenerate ``docs/rules.md`` from the rules files.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from outfall.paths import REPO_ROOT, RULES_DIR
from outfall.rules import RulesError, load_all
from outfall.rules.check import check_folder, unjudged
from outfall.rules.generate import docs_text, schema_text
from outfall.rules.town import default_rules_dir, default_town

SCHEMA_FILE = RULES_DIR / "schema.json"
DOCS_FILE = REPO_ROOT / "docs" / "rules.md"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m outfall.rules", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="read every rules file as `outfall run` does and say what is wrong")
    check.add_argument(
        "--rules",
        "--rules-dir",
        dest="rules_dir",
        default=None,
        help="folder of the rules files (default: OUTFALL_RULES_DIR, else the project's rules/)",
    )
    check.add_argument(
        "--town",
        default=None,
        help="the jurisdiction running Outfall (default: OUTFALL_TOWN, else the one file with sewer rules)",
    )
    sub.add_parser("schema", help=f"regenerate {SCHEMA_FILE.relative_to(REPO_ROOT)}")
    sub.add_parser("docs", help=f"regenerate {DOCS_FILE.relative_to(REPO_ROOT)}")
    args = parser.parse_args(argv)
    if args.command == "check":
        return check_command(args.rules_dir, args.town)
    try:
        if args.command == "schema":
            _write(SCHEMA_FILE, schema_text())
        else:
            _write(DOCS_FILE, docs_text(load_all()))
        return 0
    except RulesError as exc:
        print(f"outfall: {exc}", file=sys.stderr)
        return 2


def check_command(rules_dir: str | None, town: str | None) -> int:
    """Print what checking the folder finds (problems on stderr, the summary on stdout); 0 when a run would
    start, 2 when it would refuse the folder."""
    rules_dir = rules_dir or default_rules_dir() or None
    checked = check_folder(rules_dir, default_town() if town is None else town)
    for problem in checked.problems:
        print(f"outfall: {problem}", file=sys.stderr)
    if checked.problems:
        count = len(checked.problems)
        print(
            f"outfall: {count} problem{'s' if count > 1 else ''}; `outfall run` would refuse this folder",
            file=sys.stderr,
        )
        return 2
    for rules in checked.rules.values():
        print(f"{rules.source}: {rules.name}, version {rules.version}: ok")
        for note in rules.notes:
            print(f"  note: {note}")
        if rules.not_stated:
            print(
                f"  not stated (left empty, reported as such by what needs it): {', '.join(rules.not_stated)}"
            )
        for line in unjudged(rules):
            print(f"  a run will say: {line}")
    print(f"the town running Outfall: {checked.town.jurisdiction}")
    return 0


def _write(path: Path, text: str) -> None:
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if old == text:
        print(f"{path}: up to date")
        return
    path.write_text(text, encoding="utf-8")
    print(f"{path}: written")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
