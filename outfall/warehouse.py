"""DuckDB access: connections, the schema, SQL files and all-or-nothing writes.

Every asset writes its tables inside one transaction (``transaction``), so a
run killed at any moment leaves each table as it was before that asset or as
it is after it, never half-written.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from collections.abc import Iterator
from functools import cache, lru_cache

import duckdb
import pandas as pd

from outfall.paths import SQL_DIR, sql_path

DEFAULT_MEMORY_LIMIT = "1GB"  # DuckDB's memory_limit unless OUTFALL_MEMORY_LIMIT says otherwise
SCHEMA_MARKER = "_outfall_schema"
# Tables made from other tables (outfall/flow_hours.py: the hourly summaries of flow): when their
# columns change, a warehouse's copies are dropped and made again instead of altered.
DERIVED_TABLES = (
    "_flow_hours",
    "_flow_hour_steps",
    "_flow_hours_state",
    "_flow_gap_steps",
    "_flow_gap_series",
    "_flow_gap_state",
)
# The schema of the views a run reads its inputs through, as they stood at the end of the day it judges
# (outfall/ingest/as_of.py); the tables themselves are in ``main``.
AS_OF_SCHEMA = "as_of"
# Columns whose type changed since an older Outfall made the table: (column, old type, new type) ->
# the expression that converts a stored value (any other change is a plain CAST). A row's hash was
# its hexadecimal text; it is the number itself (a text per row weighed on every load of a meter file).
RETYPED = {("row_hash", "VARCHAR", "UBIGINT"): "CAST('0x' || \"{column}\" AS UBIGINT)"}


@cache
def sql(name: str) -> str:
    """Text of the statement ``name``: ``sql/<area>/<name>.sql`` (names are unique across areas)."""
    return sql_path(name).read_text(encoding="utf-8")


def run_script(con: duckdb.DuckDBPyConnection, text: str, params: dict) -> None:
    """Run each statement of a SQL script, binding the named parameters it uses."""
    body = "\n".join(line for line in text.splitlines() if not line.strip().startswith("--"))
    for statement in (s.strip() for s in body.split(";")):
        if statement:
            used = {k: v for k, v in params.items() if re.search(rf"\${k}\b", statement)}
            con.execute(statement, used).fetchall()


def memory_limit() -> str:
    """DuckDB's memory limit for every connection: OUTFALL_MEMORY_LIMIT (e.g. '2GB'), default 1 GB."""
    return os.environ.get("OUTFALL_MEMORY_LIMIT", "").strip() or DEFAULT_MEMORY_LIMIT


def configure(
    con: duckdb.DuckDBPyConnection, limit: str | None = None, *, timezone: str
) -> duckdb.DuckDBPyConnection:
    """Session settings every connection of ours uses: local dates and times are in ``timezone`` (the
    town's, from its rules); bounded memory (larger work spills to DuckDB's temp folder,
    ``<warehouse>.tmp`` beside the warehouse file)."""
    con.execute(f"SET TimeZone = {_quoted(timezone)}").fetchall()
    con.execute("SET memory_limit = ?", [limit or memory_limit()]).fetchall()
    threads = os.environ.get("OUTFALL_DUCKDB_THREADS", "").strip()
    if threads:  # DuckDB's worker threads (default: one a core); benchmarks/executors.py compares them
        con.execute("SET threads = ?", [int(threads)]).fetchall()
    return con


def _quoted(text: str) -> str:
    """A SQL string literal (SET takes no bound parameter)."""
    return "'" + str(text).replace("'", "''") + "'"


def area_tables_sql() -> str:
    """Each area's own tables: every ``sql/<area>/create_*_tables.sql``, in file-name order."""
    return "\n".join(
        sql(path.stem) for path in sorted(SQL_DIR.rglob("create_*_tables.sql"), key=lambda p: p.name)
    )


@lru_cache(maxsize=8)
def schema_digest(ddl: str) -> str:
    """SHA-256 of a schema's DDL: what a warehouse records of the schema it was built with."""
    return hashlib.sha256(ddl.encode()).hexdigest()


def ensure_schema(con: duckdb.DuckDBPyConnection, ddl: str, views: str = "") -> None:
    """Create every table ``ddl`` declares (idempotent), and bring tables an older Outfall made to its
    columns; then run ``views`` (the views over them). The warehouse remembers the DDL's digest, so a
    connection to an up-to-date warehouse runs no DDL at all. The caller assembles ``ddl``
    (``assets.common.schema_ddl``: the contract's tables, the input tables made from the dataset specs,
    the areas' own) and ``views``."""
    digest = schema_digest(ddl + views)
    try:
        if con.execute(f"SELECT max(digest) FROM main.{SCHEMA_MARKER}").fetchall()[0][0] == digest:
            return
    except duckdb.CatalogException:
        pass
    with as_loaded(con):
        new = con.execute(sql("count_tables")).fetchall()[0][0] == 0
        con.execute(ddl).fetchall()
        if not new:  # a new warehouse has nothing made by an older Outfall to upgrade
            upgrade_tables(con, ddl)
        if views:
            con.execute(views).fetchall()
        con.execute(
            f"CREATE OR REPLACE TABLE main.{SCHEMA_MARKER} AS SELECT ? AS digest", [digest]
        ).fetchall()


@contextlib.contextmanager
def as_loaded(con: duckdb.DuckDBPyConnection) -> Iterator[duckdb.DuckDBPyConnection]:
    """``con`` reads and writes the tables as loaded for a while, whatever day it judges by
    (outfall/ingest/as_of.py): unqualified names find the tables of ``main``, and new tables go there."""
    path = con.execute("SELECT current_setting('search_path')").fetchall()[0][0]
    if not path or path == "main":
        yield con
        return
    con.execute("SET search_path = 'main'").fetchall()
    try:
        yield con
    finally:
        con.execute(f"SET search_path = {_quoted(path)}").fetchall()


def upgrade_tables(con: duckdb.DuckDBPyConnection, text: str) -> list[str]:
    """Bring the tables of a warehouse made by an older Outfall to the columns ``text`` declares: a
    column added since is added (empty), one no longer declared is dropped, one whose type changed is
    converted (RETYPED, else a CAST). (CREATE TABLE IF NOT EXISTS leaves an existing table as it was,
    and ``replace_rows`` refuses a table whose columns differ.) Returns what was changed, as
    'table.column added|dropped|now <type>'."""
    declared: dict[str, list[tuple[str, str]]] = {}
    scratch = duckdb.connect()
    try:
        scratch.execute(text).fetchall()
        for table, column, kind in scratch.execute(sql("select_declared_columns")).fetchall():
            declared.setdefault(table, []).append((column, kind))
        derived = {t: table_columns(scratch, t) for t in DERIVED_TABLES}
    finally:
        scratch.close()
    changed = []
    # Summaries made from other tables are not altered but dropped when their columns change, and
    # made again (empty, so that their maker rebuilds them) by the CREATE TABLE IF NOT EXISTS below.
    if any(table_columns(con, t) not in ([], want) for t, want in derived.items()):
        for table in DERIVED_TABLES:
            con.execute(f'DROP TABLE IF EXISTS "{table}"').fetchall()
            changed.append(f"{table} made again")
        con.execute(text).fetchall()
    have: dict[str, dict[str, str]] = {}
    for table, column, kind in con.execute(sql("select_declared_columns")).fetchall():
        have.setdefault(table, {})[column] = kind
    for table, columns in declared.items():
        if table not in have:
            continue
        names = {c for c, _ in columns}
        for column, kind in columns:
            if column not in have[table]:
                con.execute(f'ALTER TABLE "{table}" ADD COLUMN "{column}" {kind}').fetchall()
                changed.append(f"{table}.{column} added")
            elif have[table][column] != kind:
                using = RETYPED.get((column, have[table][column], kind), 'CAST("{column}" AS {kind})')
                con.execute(
                    f'ALTER TABLE "{table}" ALTER COLUMN "{column}" SET DATA TYPE {kind} USING '
                    + using.format(column=column, kind=kind)
                ).fetchall()
                changed.append(f"{table}.{column} now {kind}")
        for column in sorted(set(have[table]) - names):
            con.execute(f'ALTER TABLE "{table}" DROP COLUMN "{column}"').fetchall()
            changed.append(f"{table}.{column} dropped")
    return changed


@contextlib.contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[duckdb.DuckDBPyConnection]:
    """BEGIN ... COMMIT, or ROLLBACK on any error."""
    con.execute("BEGIN TRANSACTION").fetchall()
    try:
        yield con
    except BaseException:
        con.execute("ROLLBACK").fetchall()
        raise
    con.execute("COMMIT").fetchall()


def table_columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    rows = con.execute(sql("select_table_columns"), {"table": table, "schema": None}).fetchall()
    return [r[0] for r in rows]


class ColumnMismatch(ValueError):
    """A frame given to ``replace_rows`` whose columns are not exactly the table's."""


def replace_rows(con: duckdb.DuckDBPyConnection, table: str, frame: pd.DataFrame) -> int:
    """Replace every row of ``table`` with ``frame``, whose columns must be exactly the table's
    (in any order): a missing or an extra column raises ``ColumnMismatch`` instead of being
    NULL-filled or dropped without a word. A frame with no rows and no columns (nothing was
    found) empties the table. Call inside ``transaction``."""
    cols = table_columns(con, table)
    if len(frame.columns) or len(frame):
        missing = [c for c in cols if c not in frame.columns]
        extra = [str(c) for c in frame.columns if c not in cols]
        if missing or extra:
            raise ColumnMismatch(
                f"table {table}: the rows to write lack column(s) {missing} and have "
                f"column(s) {extra} the table does not have; change the table's CREATE "
                f"TABLE or the asset so they agree"
            )
    out = frame.reindex(columns=cols)
    con.execute(f'DELETE FROM "{table}"').fetchall()
    if len(out):
        con.register("_replace_rows_frame", out)
        try:
            con.execute(f'INSERT INTO "{table}" SELECT * FROM _replace_rows_frame').fetchall()
        finally:
            con.unregister("_replace_rows_frame")
    return len(out)


def count(con: duckdb.DuckDBPyConnection, table: str) -> int:
    return int(con.execute(f'SELECT count(*) FROM "{table}"').fetchall()[0][0])


def preview_markdown(con: duckdb.DuckDBPyConnection, table: str, limit: int = 10) -> str:
    cursor = con.execute(f'SELECT * FROM "{table}" LIMIT {int(limit)}')
    rows = cursor.fetchall()
    if not rows:
        return "_no rows_"  # (most tables of a small town: no DataFrame built for nothing)
    frame = pd.DataFrame.from_records(rows, columns=[d[0] for d in cursor.description])
    return frame.to_markdown(index=False) if _has_tabulate() else frame.to_string(index=False)


@lru_cache(maxsize=1)
def _has_tabulate() -> bool:
    try:
        import tabulate  # noqa: F401
    except ImportError:
        return False
    return True


@contextlib.contextmanager
def kept_open(database: str | os.PathLike) -> Iterator[None]:
    """Keep the warehouse's database open for the duration of a run.

    Every asset opens and closes its own connection; DuckDB shares one open
    database among a process's connections, so while this one is open an
    asset's connection does not load the catalog again nor checkpoint on close,
    which every step of a run would otherwise pay.
    Transactions commit as before (a killed run loses nothing committed)."""
    con = duckdb.connect(
        str(database), config={"custom_user_agent": "dagster"}
    )  # the config DuckDBResource uses
    try:
        yield
    finally:
        con.close()
