"""What ``outfall export`` (and ``outfall demo``) writes into its folder: every output table
(``csv/`` and ``outfall_tables.xlsx``, :mod:`outfall.table_exports`), the sewer register's files
under ``billing/`` (:mod:`outfall.register_export`), and a copy of the pages, letters inside, from
where the warehouse's last run wrote them (:mod:`outfall.output_folders`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb

from outfall.output_folders import last_run_dashboards, output_paths
from outfall.register_export import export_register
from outfall.rules import local_timezone
from outfall.table_exports import write_tables


def export_all(warehouse: Path, out: Path) -> int:
    """Every output table as CSV and in one XLSX workbook, the sewer register's
    files under billing/, and the pages (letters inside) copied from where the
    last run wrote them; returns the number of tables exported."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        con.execute("SET TimeZone = '" + local_timezone().replace("'", "''") + "'").fetchall()
        tables = write_tables(con, out)
        export_register(con, out / "billing")
        pages = last_run_dashboards(con) or output_paths(str(warehouse)).dashboards
    finally:
        con.close()
    if pages is not None and pages.is_dir() and pages.resolve() != (out / "dashboards").resolve():
        shutil.copytree(pages, out / "dashboards", dirs_exist_ok=True)
    return tables
