"""The inputs as they stood at the end of a day (contract 8.1): what a run as of that day judges.

A run as of D judges the input tables as they stood at the end of D. Each dataset spec says how
(``Dataset.own_day``, ``Dataset.later_facts``): a row whose own day is after D (a sample collected, a
reading taken, a mailing) is not yet a fact; a later fact of a row that stands (a site's final
stabilization, an appeal's decision) is blank, with the columns that go with it.

The tables keep every row loaded. Beside each dated input table the warehouse keeps a view of the same
name in the schema ``as_of`` (``views_ddl``, made with the tables), which reads the table as it stood at
the end of the day the connection names in its variables. A connection that judges names its day
(``judge_as_of``: ``SET VARIABLE as_of``, and the schema ``as_of`` first on its search path), so that
every statement of every asset on it reads the inputs as of that day without a word about it; ingestion,
whose connections do not, writes the tables themselves. The hourly summaries of flow
(``outfall.flow_hours.AS_OF_HOURS``) are seen the same way: the hours before the end of the day.

``held_back`` counts, per folder, the rows a run as of the day did not judge and the later facts it left
blank (the index page says how many).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from functools import lru_cache
from zoneinfo import ZoneInfo

import duckdb

from outfall.flow_hours import AS_OF_HOURS
from outfall.ingest.datasets import Dataset
from outfall.ingest.parse import ident, lit
from outfall.ingest.registry import all_datasets
from outfall.warehouse import AS_OF_SCHEMA, as_loaded

HOUR_US = 3_600_000_000
# The connection's variables the views read: the day (a date column is compared with it), the instant it
# ends (local midnight after it, in the town's time zone: a time is compared with it) and the first UTC
# hour (epoch hours) that is not wholly on or before it (the hourly summaries).
DAY, END, HOUR = "getvariable('as_of')", "getvariable('as_of_end')", "getvariable('as_of_hour')"


def day_end(day: dt.date, timezone: str) -> dt.datetime:
    """The instant ``day`` ends in ``timezone``: the local midnight after it."""
    return dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), ZoneInfo(timezone))


def variables(day: dt.date, timezone: str) -> dict[str, object]:
    """The values of the connection's variables for ``day``."""
    end = day_end(day, timezone)
    return {
        "as_of": day,
        "as_of_end": end,
        "as_of_hour": int(end.timestamp() * 1_000_000) // HOUR_US,
    }


def on_or_before(column: str, sql_type: str, alias: str = "") -> str:
    """SQL: ``column``'s (local) day is on or before the connection's day (NULL when the column is)."""
    col = f"{alias}.{ident(column)}" if alias else ident(column)
    if sql_type.startswith("TIMESTAMP"):
        return f"{col} < {END}"
    return f"{col} <= {DAY}"


def dated(ds: Dataset) -> bool:
    """Whether a run as of a day sees ``ds`` otherwise than loaded."""
    return bool(ds.own_day or ds.later_facts)


def fact_sql(ds: Dataset, alias: str = "") -> str:
    """SQL over a row ``alias`` of ``ds``'s table: true when the row is a fact at the end of the day (its
    own day is not after it)."""
    if not ds.own_day:
        return "true"
    alias = alias or ident(ds.name)
    col = f"{alias}.{ident(ds.own_day)}"
    return f"({col} IS NULL OR {on_or_before(ds.own_day, dict(ds.table_columns())[ds.own_day], alias)})"


def raw_own_day(ds: Dataset) -> str:
    """The cell of a quarantined row (its ``raw``) that holds the row's own day: the spec's column the
    table's own-day column is read from; '' when none (an own day the finish steps derive)."""
    names = {c.name for c in ds.columns}
    renamed = {table: column for column, table in ds.renames}
    column = renamed.get(ds.own_day, ds.own_day)
    return column if ds.own_day and column in names else ""


def quarantined_after_sql() -> str:
    """SQL over a row of ``quarantine``: true when the cell of its own day (as its file gives it) is a
    time or a date after the day: a row refused whose day is after the day judged is no more a fact than
    one kept (a cell that is no time at all stays listed)."""
    whens = [
        f"WHEN {lit(ds.name)} THEN try_cast(json_extract_string(quarantine.raw, "
        f"{lit('$.' + raw_own_day(ds))}) AS TIMESTAMPTZ) >= {END}"
        for ds in all_datasets().values()
        if raw_own_day(ds)
    ]
    return f"coalesce(CASE quarantine.dataset {' '.join(whens)} END, false)" if whens else "false"


def masked_columns(ds: Dataset) -> list[tuple[str, str]]:
    """(column, SQL) of each later fact of ``ds`` and what goes with it: blank when its day is after."""
    types = dict(ds.table_columns())
    out = []
    for fact in ds.later_facts:
        known = on_or_before(fact.column, types[fact.column])
        out.append((fact.column, f"CASE WHEN {known} THEN {ident(fact.column)} END"))
        out += [
            (c, f"CASE WHEN {ident(fact.column)} IS NULL OR {known} THEN {ident(c)} END")
            for c in fact.goes_with
        ]
    return out


def later_sql(ds: Dataset, alias: str = "") -> str:
    """SQL over a row ``alias`` of ``ds``: true when one of its later facts is after the day."""
    types = dict(ds.table_columns())
    alias = alias or ident(ds.name)
    after = [f"NOT {on_or_before(f.column, types[f.column], alias)}" for f in ds.later_facts]
    return " OR ".join(after) or "false"


def _table(name: str) -> str:
    return f"main.{ident(name)}"


def _view(name: str, select: str, where: str) -> str:
    return (
        f"CREATE OR REPLACE VIEW {AS_OF_SCHEMA}.{ident(name)} AS SELECT {select} FROM {_table(name)} "
        f"AS {ident(name)} WHERE {where};"
    )


def view_sql(ds: Dataset) -> str:
    """The view of ``ds``'s table as of the connection's day."""
    masked = masked_columns(ds)
    select = "*" if not masked else "* REPLACE (" + ", ".join(f"{e} AS {ident(c)}" for c, e in masked) + ")"
    return _view(ds.name, select, fact_sql(ds))


@lru_cache(maxsize=4)
def views_ddl(others: tuple[tuple[str, str], ...] = ()) -> str:
    """Every view a connection that judges as of a day reads: each dated input table's, the hourly
    summaries of flow's (the hours before the day's end) and ``others``' ((table, SQL condition over its
    row ``t``, which may compare with ``DAY``): what else the warehouse keeps from run to run that a run
    as of a day reads as it stood then, such as the record of the documents issued). Run after the tables
    are made."""
    views = [view_sql(ds) for ds in all_datasets().values() if dated(ds)]
    views += [_view(t, "*", f"h < {HOUR}") for t in AS_OF_HOURS]
    views.append(_view("quarantine", "*", f"NOT {quarantined_after_sql()}"))
    views += [_view(t, "*", where) for t, where in others]
    return "\n".join([f"CREATE SCHEMA IF NOT EXISTS {AS_OF_SCHEMA};", *views])


def view_names(others: tuple[tuple[str, str], ...] = ()) -> tuple[str, ...]:
    """The tables a connection that judges reads as of its day."""
    dated_inputs = (n for n, ds in all_datasets().items() if dated(ds))
    return (*dated_inputs, *AS_OF_HOURS, "quarantine", *(t for t, _ in others))


def set_day(con: duckdb.DuckDBPyConnection, day: dt.date, timezone: str) -> None:
    """Name ``day`` in the connection's variables (what the views and ``held_back`` read)."""
    for name, value in variables(day, timezone).items():
        con.execute(f"SET VARIABLE {name} = ?", [value]).fetchall()


def judge_as_of(con: duckdb.DuckDBPyConnection, day: dt.date, timezone: str) -> duckdb.DuckDBPyConnection:
    """From now on ``con`` reads the inputs as they stood at the end of ``day`` (``timezone``: the town's,
    where local days end): its unqualified names find the views of the schema ``as_of`` first
    (``outfall.warehouse.as_loaded`` reads the tables as loaded for a while)."""
    set_day(con, day, timezone)
    made = con.execute(
        "SELECT count(*) FROM duckdb_schemas() WHERE schema_name = ? AND database_name = current_database()",
        [AS_OF_SCHEMA],
    ).fetchall()[0][0]
    if made:  # (a warehouse no asset has opened yet has no views, and its tables hold nothing judged)
        con.execute(f"SET search_path = '{AS_OF_SCHEMA},main'").fetchall()
    return con


def held_back_sql(datasets: Iterable[Dataset] | None = None) -> str:
    """One row per dated folder: (dataset, rows whose own day is after the connection's day, rows standing
    whose later facts are after it), over the tables as loaded."""
    parts = [
        f"SELECT {lit(ds.name)} AS dataset, "
        f"count(*) FILTER (WHERE NOT {fact_sql(ds)}) AS rows_after, "
        f"count(*) FILTER (WHERE {fact_sql(ds)} AND ({later_sql(ds)})) AS later_facts_after "
        f"FROM {_table(ds.name)} AS {ident(ds.name)}"
        for ds in (datasets if datasets is not None else all_datasets().values())
        if dated(ds)
    ]
    return "\nUNION ALL\n".join(parts) + "\nORDER BY dataset"


def held_back(con: duckdb.DuckDBPyConnection, day: dt.date, timezone: str) -> list[tuple[str, int, int, int]]:
    """(dataset, rows after ``day``, rows standing with later facts after it, rows quarantined whose day
    is after it) of every dated folder, over the tables as loaded."""
    with as_loaded(con):
        set_day(con, day, timezone)
        rows = {d: (int(r), int(f)) for d, r, f in con.execute(held_back_sql()).fetchall()}
        refused = dict(
            con.execute(
                "SELECT dataset, count(*) FROM main.quarantine AS quarantine "
                f"WHERE {quarantined_after_sql()} GROUP BY dataset"
            ).fetchall()
        )
    names = sorted(set(rows) | set(refused))
    return [(d, *rows.get(d, (0, 0)), int(refused.get(d, 0))) for d in names]
