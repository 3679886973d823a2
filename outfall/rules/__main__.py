"""``python -m outfall.rules check | schema | docs``.

- ``check [--rules-dir DIR]``: read every rules file; exit 2 with one line when one is not usable.
- ``schema``: regenerate ``rules/schema.json`` from the models.
- ``docs``: regenerate ``docs/rules.md`` from the rules files.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from outfall.paths import REPO_ROOT, RULES_DIR
from outfall.rules import RulesError, load_all
from outfall.rules.generate import docs_text, schema_text

SCHEMA_FILE = RULES_DIR / "schema.json"
DOCS_FILE = REPO_ROOT / "docs" / "rules.md"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m outfall.rules", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="read every rules file and say what is wrong")
    check.add_argument(
        "--rules-dir", default=None, help="folder of the rules files (default: the project's rules/)"
    )
    sub.add_parser("schema", help=f"regenerate {SCHEMA_FILE.relative_to(REPO_ROOT)}")
    sub.add_parser("docs", help=f"regenerate {DOCS_FILE.relative_to(REPO_ROOT)}")
    args = parser.parse_args(argv)
    try:
        if args.command == "check":
            rules = load_all(args.rules_dir)
            for r in rules.values():
                print(f"{r.source}: {r.name}, version {r.version}: ok")
            return 0
        if args.command == "schema":
            _write(SCHEMA_FILE, schema_text())
        else:
            _write(DOCS_FILE, docs_text(load_all()))
        return 0
    except RulesError as exc:
        print(f"outfall: {exc}", file=sys.stderr)
        return 2


def _write(path: Path, text: str) -> None:
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if old == text:
        print(f"{path}: up to date")
        return
    path.write_text(text, encoding="utf-8")
    print(f"{path}: written")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
