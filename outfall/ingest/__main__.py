"""``python -m outfall.ingest docs [--check]``.

- ``docs``: regenerate the input folders' tables in ``docs/inputs*.md`` and the README's table of folders from
  the dataset specs (the marked blocks only; the prose around them is kept).
- ``docs --check``: write nothing; exit 1 naming the pages that are stale.
"""

from __future__ import annotations

import argparse
import sys

from outfall.ingest.docs import DocsError, readme_stale, stale_pages, write_pages, write_readme


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m outfall.ingest", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    docs = sub.add_parser("docs", help="regenerate the input folders' tables in docs/inputs*.md")
    docs.add_argument("--check", action="store_true", help="write nothing; exit 1 when a page is stale")
    args = parser.parse_args(argv)
    try:
        if args.check:
            stale = [f"docs/{page}" for page in stale_pages()] + (["README.md"] if readme_stale() else [])
            for page in stale:
                print(f"{page}: stale: run `python -m outfall.ingest docs`", file=sys.stderr)
            return 1 if stale else 0
        written = [f"docs/{page}" for page in write_pages()] + (["README.md"] if write_readme() else [])
        print(
            "\n".join(f"{page}: written" for page in written) or "docs/inputs*.md and README.md: up to date"
        )
        return 0
    except DocsError as exc:
        print(f"outfall: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
