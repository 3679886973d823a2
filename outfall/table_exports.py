"""Every output table of the warehouse for a clerk's spreadsheet: ``csv/<table>.csv`` each, and
``outfall_tables.xlsx`` with a Contents sheet and one sheet per table (typed cells, print set-up:
:mod:`outfall.spreadsheets`).

Output tables are those Outfall makes: not the input tables nor their ledger, nor a table's
``_history``, nor the scratch tables whose names begin with "_". A table of more than
:data:`XLSX_MAX_ROWS` rows is in its CSV only; the Contents sheet says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from outfall.ingest.registry import all_datasets
from outfall.rules import load_rules, local_timezone
from outfall.spreadsheets import Column, Sheet, sheet_title, write_atomic, write_csv, xlsx_bytes
from outfall.warehouse import sql

EXPORT_SKIP_PREFIXES = ("_",)
XLSX_MAX_ROWS = 100_000  # larger tables go to CSV only (the billing register has its own workbook)


def input_tables() -> set[str]:
    """The input tables and their ledger: what the clerk sent, not what Outfall made of it."""
    return set(all_datasets()) | {"ingested_files"}


def column_kind(name: str, data_type: str) -> str:
    """The sheet column kind of a warehouse column."""
    t = data_type.upper()
    if t.startswith("DECIMAL") or t.startswith("NUMERIC"):
        scale = re.search(r",\s*(\d+)\)", t)
        return "rate" if scale and int(scale.group(1)) > 2 else "money"
    if t in ("DOUBLE", "FLOAT", "REAL"):
        return "money" if name.endswith("_usd") else "number"
    if t in (
        "TINYINT",
        "SMALLINT",
        "INTEGER",
        "BIGINT",
        "HUGEINT",
        "UTINYINT",
        "USMALLINT",
        "UINTEGER",
        "UBIGINT",
    ):
        return "int"
    if t == "DATE":
        return "date"
    if t.startswith("TIMESTAMP"):
        return "datetime"
    if t == "BOOLEAN":
        return "bool"
    if t == "JSON":
        return "json"
    return "text"


@dataclass
class TableExport:
    table: str
    rows: int
    sheet: str | None = None
    note: str = ""
    columns: list[tuple[str, str]] = field(default_factory=list)


def _output_tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    tables = [
        r[0]
        for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' "
            "AND table_schema = current_schema() ORDER BY table_name"
        ).fetchall()
    ]
    inputs = input_tables()
    return [
        t
        for t in tables
        if t not in inputs and not t.endswith("_history") and not t.startswith(EXPORT_SKIP_PREFIXES)
    ]


def _table_columns(con: duckdb.DuckDBPyConnection, table: str) -> list[tuple[str, str]]:
    return [
        (r[0], r[1])
        for r in con.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ? "
            "AND table_schema = current_schema() ORDER BY ordinal_position",
            [table],
        ).fetchall()
    ]


def _contents_sheet(exports: list[TableExport], town: str) -> Sheet:
    columns = [
        Column("Sheet"),
        Column("CSV file"),
        Column("Rows", "int", width=10),
        Column("Note", width=80, wrap=True),
    ]
    rows = [(e.sheet or "(not in this workbook)", f"csv/{e.table}.csv", e.rows, e.note) for e in exports]
    rows.append(
        (
            "",
            "",
            None,
            f"Times are local time ({local_timezone()}); dates are shown in this computer's "
            "short-date form; money is in US dollars. Each sheet has the columns of its table; the CSV files "
            "hold the same rows. Wide sheets print across several pages, with the first column repeated.",
        )
    )
    if town:
        rows.append(("", "", None, f"Exported by Outfall for the {town}."))
    return Sheet("Contents", columns, rows, autofilter=False)


def _town_name(con: duckdb.DuckDBPyConnection) -> str:
    """The town named by the rules the last billing run used ('' when none is known)."""
    try:
        rows = con.execute(sql("select_last_billing_jurisdiction")).fetchall()
    except duckdb.Error:
        return ""
    if not rows or not rows[0][0]:
        return ""
    try:
        return load_rules(rows[0][0]).name
    except Exception:  # noqa: BLE001 - a page header is not worth failing an export for
        return ""


def tables_workbook(con: duckdb.DuckDBPyConnection, tables: list[str]) -> tuple[bytes, list[TableExport]]:
    """``outfall_tables.xlsx``: a Contents sheet, then one sheet per table (up to
    :data:`XLSX_MAX_ROWS` rows; larger tables are in their CSV only)."""
    taken = {"contents"}
    sheets: list[Sheet] = []
    exports: list[TableExport] = []
    for table in tables:
        columns = _table_columns(con, table)
        n = int(con.execute(f'SELECT count(*) FROM "{table}"').fetchall()[0][0])
        export = TableExport(table, n, columns=columns)
        exports.append(export)
        if n > XLSX_MAX_ROWS:
            export.note = (
                f"{n:,} rows: more than this workbook holds per sheet ({XLSX_MAX_ROWS:,}); "
                f"open csv/{table}.csv"
            )
            continue
        rows = con.execute(f'SELECT * FROM "{table}"').fetchall()
        export.sheet = sheet_title(table, taken)
        if n == 0:
            export.note = "no rows"
        sheets.append(
            Sheet(export.sheet, [Column(name, column_kind(name, typ)) for name, typ in columns], rows)
        )
    town = _town_name(con)
    contents = _contents_sheet(exports, town)
    return xlsx_bytes([contents, *sheets], title="Outfall tables", town=town), exports


def write_tables(con: duckdb.DuckDBPyConnection, out: Path) -> int:
    """Every output table as ``out/csv/<table>.csv`` and in ``out/outfall_tables.xlsx``; how many tables."""
    (out / "csv").mkdir(parents=True, exist_ok=True)
    tables = _output_tables(con)
    for table in tables:
        write_csv(out / "csv" / f"{table}.csv", con, f'SELECT * FROM "{table}"')
    data, _ = tables_workbook(con, tables)
    write_atomic(out / "outfall_tables.xlsx", data)
    return len(tables)
