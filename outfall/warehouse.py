"""DuckDB access: connections, the schema, SQL files and all-or-nothing writes.

Every asset writes its tables inside one transaction (``transaction``), so a
run killed at any moment leaves each table as it was before that asset or as
it is after it, never half-written.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from functools import lru_cache
from typing import Iterator, Sequence

import duckdb
import pandas as pd

from outfall.paths import SQL_DIR, sql_path

LOCAL_TZ = "America/New_York"


@lru_cache(maxsize=None)
def sql(name: str) -> str:
    """Text of the statement ``name``: ``sql/<area>/<name>.sql`` (names are unique across areas)."""
    return sql_path(name).read_text(encoding="utf-8")


def configure(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """Session settings every connection of ours uses: local dates are America/New_York."""
    con.execute(f"SET TimeZone = '{LOCAL_TZ}'").fetchall()
    return con


def ensure_schema(con: duckdb.DuckDBPyConnection) -> None:
    """Create every table: the contract's (sql/create_tables.sql), then each
    area's own (sql/create_<area>_tables.sql)."""
    con.execute(sql("create_tables")).fetchall()
    for path in sorted(SQL_DIR.rglob("create_*_tables.sql"), key=lambda p: p.name):
        con.execute(sql(path.stem)).fetchall()


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
    rows = con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position",
        [table],
    ).fetchall()
    return [r[0] for r in rows]


def replace_rows(con: duckdb.DuckDBPyConnection, table: str, frame: pd.DataFrame) -> int:
    """Replace every row of ``table`` with ``frame`` (columns matched by name;
    missing columns become NULL). Call inside ``transaction``."""
    cols = table_columns(con, table)
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
    frame = con.execute(f'SELECT * FROM "{table}" LIMIT {int(limit)}').df()
    if frame.empty:
        return "_no rows_"
    return frame.to_markdown(index=False) if _has_tabulate() else frame.to_string(index=False)


@lru_cache(maxsize=1)
def _has_tabulate() -> bool:
    try:
        import tabulate  # noqa: F401
    except ImportError:
        return False
    return True


def today_local() -> dt.date:
    from zoneinfo import ZoneInfo

    return dt.datetime.now(ZoneInfo(LOCAL_TZ)).date()


def fetch_df(con: duckdb.DuckDBPyConnection, query: str, params: Sequence | dict | None = None) -> pd.DataFrame:
    return con.execute(query, params or []).df()
