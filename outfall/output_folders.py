"""The one rule for where a run writes its files.

- pages: ``dashboards_dir`` when given (``outfall run --dashboards DIR``), else a
  ``dashboards`` folder beside the warehouse file;
- letters: ``<pages>/letters/<area>`` (sewer, stormwater), so that the pages
  link to them with relative paths;
- exports (the billing register): ``<warehouse folder>/exports/billing``.

An in-memory warehouse with no ``dashboards_dir`` has no folder: nothing is
written, and the assets say so. Every asset, the command line and ``outfall
export`` ask this module; none computes a path of its own. The folders a run
used are recorded in the warehouse (table ``outfall_run``), so ``outfall
export`` copies the pages from where that run wrote them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from outfall.warehouse import sql


def _file_database(database: str | None) -> Path | None:
    text = str(database or "")
    if not text or text.startswith(":memory:") or text.startswith("md:"):
        return None
    return Path(text).expanduser().resolve()


@dataclass(frozen=True)
class OutputPaths:
    dashboards: Path | None
    exports: Path | None

    def letters(self, area: str) -> Path | None:
        return None if self.dashboards is None else self.dashboards / "letters" / area

    @property
    def billing_exports(self) -> Path | None:
        return None if self.exports is None else self.exports / "billing"


def output_paths(database: str | None, dashboards_dir: str | None = "") -> OutputPaths:
    """Where a run on warehouse ``database`` writes pages, letters and exports."""
    db = _file_database(database)
    if dashboards_dir:
        pages = Path(dashboards_dir).expanduser().resolve()
    else:
        pages = None if db is None else db.parent / "dashboards"
    if db is not None:
        exports = db.parent / "exports"
    else:
        exports = None if pages is None else pages.parent / "exports"
    return OutputPaths(dashboards=pages, exports=exports)


def last_run_dashboards(con) -> Path | None:
    """The pages folder of the warehouse's most recent run (None: no run recorded, or none written)."""
    try:
        row = con.execute(sql("select_outfall_run")).fetchone()
    except Exception:  # noqa: BLE001 - a warehouse from before runs were recorded
        return None
    return Path(row[3]) if row and row[3] else None
