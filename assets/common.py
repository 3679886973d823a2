"""Small helpers every asset module uses: opening the warehouse and reporting."""

import contextlib
import datetime as dt
from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import duckdb
from dagster import (
    AssetCheckKey,
    AssetCheckResult,
    AssetChecksDefinition,
    AssetExecutionContext,
    BackfillPolicy,
    DynamicPartitionsDefinition,
    MaterializeResult,
    MetadataValue,
    asset,
    asset_check,
)
from dagster_duckdb import DuckDBResource

from outfall.ingest.as_of import judge_as_of, views_ddl
from outfall.ingest.compile import create_table_sql
from outfall.ingest.registry import all_datasets
from outfall.law.enforcement import add_months
from outfall.output_folders import OutputPaths, output_paths
from outfall.records import AS_OF_RECORDS
from outfall.resources import OutfallSettings
from outfall.rules import Rules, local_timezone
from outfall.warehouse import area_tables_sql, configure, count, ensure_schema, preview_markdown, sql

GROUP_SEWER = "sewer"
GROUP_STORMWATER = "stormwater"
GROUP_BILLING = "billing"
GROUP_INGEST = "ingestion"
GROUP_DASHBOARDS = "dashboards"

# The two partitions definitions hold only keys that have data: a billing year is a year that has rates
# (adopted or from a budget), a reading month a month (its first local day, ``2026-03-01``) that has
# readings. Both are dynamic: the ingestion step reports those the loaded files give (``data_partitions``)
# and the input sensor registers them (its dynamic_partitions_requests); `outfall run` in its own. A
# calendar would offer years without rates (each failing on its first missing rate) and every month since
# a first one written in code (a backfill of "all partitions" ran 324 months for 12 months of readings).
BILLING_YEARS = DynamicPartitionsDefinition(name="billing_year")
READING_MONTHS = DynamicPartitionsDefinition(name="reading_month")
ONE_RUN = BackfillPolicy.single_run()
# The Dagster concurrency pool of every step that writes the warehouse: DuckDB lets one process write a
# file, so the instance's settings (pipelines/dagster.yaml: `concurrency: pools: default_limit: 1`) let
# one such step run at a time, across runs; the others wait in Dagster's queue, not on the file's lock.
WAREHOUSE_POOL = "outfall_warehouse"


def years_with_rates(con, rules: Rules | None = None) -> list[int]:
    """Every year that has rates: the years with adopted rates (sewer_rates), and the years of a budget
    (sewer_budget) whose billing rules (``rules``, the town's) adopt the method of deriving a rate from it
    (``billing.rate_sources``; a budget alone is no rate the Town adopted). These are the billing years.
    A town whose rules state no unit schedule has no unit bills, and so no billing year."""
    if rules is not None and getattr(rules, "sewer_units", None) is None:
        return []
    years = {int(r[0]) for r in con.execute(sql("select_billing_years")).fetchall()}
    versions = getattr(rules, "billing", None) if rules is not None else None
    for (budget_year,) in con.execute(sql("select_budget_years")).fetchall() if versions else ():
        version = versions.get(dt.date(int(budget_year), 1, 1))
        if version is not None and "sewer_budget" in version.rate_sources:
            years.add(int(budget_year))
    return sorted(years)


def data_partitions(con, rules: Rules | None = None, as_of: dt.date | None = None) -> dict[str, list[str]]:
    """The partitions the warehouse (``con``) gives, by partitions definition's name: each month that has
    readings (its first local day; ``as_of``: on or before that day, since a month after it has nothing to
    judge yet) and each year that has rates (by the town's ``rules``). The ingestion step reports them (the
    quarantine's metadata); the input sensor registers those the instance lacks (pipelines.definitions),
    and `outfall run` in its own."""
    from outfall.flow_hours import ensure_flow_hours  # ingestion's module: only where flow is read

    ensure_flow_hours(con)
    months = [r[0] for r in con.execute(sql("select_reading_months")).fetchall()]
    return {
        READING_MONTHS.name: [m.isoformat() for m in months if as_of is None or m <= as_of],
        BILLING_YEARS.name: [str(y) for y in years_with_rates(con, rules)],
    }


def reading_months_in(con, since: dt.datetime | None = None) -> list[dt.date]:
    """The months (first local days) from the first to the last that have readings, or, ``since``, readings
    loaded on or after it; none without readings."""
    query, params = (
        ("select_reading_month_span", {})
        if since is None
        else ("select_reading_month_span_loaded_since", {"since": since})
    )
    first, last = con.execute(sql(query), params).fetchall()[0]
    return months_between(first, last) if first is not None else []


def months_between(first: dt.date, last: dt.date) -> list[dt.date]:
    """The first days of the months from ``first``'s to ``last``'s, both included."""
    months, month = [], first.replace(day=1)
    while month <= last:
        months.append(month)
        month = add_months(month, 1)
    return months


@lru_cache(maxsize=1)
def schema_ddl() -> str:
    """Every CREATE TABLE of the warehouse: the contract's (sql/ingest/create_tables.sql), the input
    tables made from the dataset specs, then each area's own (sql/<area>/create_*_tables.sql)."""
    specs = (create_table_sql(ds) for ds in all_datasets().values())
    return "\n".join([sql("create_tables"), *specs, area_tables_sql()])


@contextlib.contextmanager
def warehouse(
    resource: DuckDBResource, timezone: str | None = None, *, as_of: dt.date | None = None
) -> Iterator[duckdb.DuckDBPyConnection]:
    """A configured connection with every table created; local times in ``timezone``, by default the
    town's of the run (``outfall.rules.local_timezone``, which the rules resource sets). ``as_of``: the
    day the run judges (``OutfallSettings.as_of_date()``): the connection reads the inputs as they stood
    at its end (contract 8.1, ``outfall.ingest.as_of``); without it, as loaded (ingestion)."""
    database = str(getattr(resource, "database", "") or "")
    if database and not database.startswith((":memory:", "md:")):
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    with resource.get_connection() as con:
        try:
            tz = timezone or local_timezone()
            configure(con, timezone=tz)
            ensure_schema(con, schema_ddl(), views_ddl(AS_OF_RECORDS))
            if as_of is not None:
                judge_as_of(con, as_of, tz)
            yield con
        finally:
            # Close even when the step fails, so the file is not left open in
            # this process (a later read-only connection would be refused).
            con.close()


@contextlib.contextmanager
def held_open(resource: DuckDBResource) -> Iterator[None]:
    """The warehouse held open for a block (one step, never a whole run): the connections the block opens
    share the open database (DuckDB keeps one per file and process) instead of loading its catalog and
    checkpointing on close each time. An in-memory database is not shared: nothing is held."""
    database = str(getattr(resource, "database", "") or "")
    if not database or database.startswith((":memory:", "md:")):
        yield
        return
    Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    with resource.get_connection():
        yield


def read_as_of(con: duckdb.DuckDBPyConnection, as_of: dt.date, timezone: str) -> duckdb.DuckDBPyConnection:
    """``con`` (a page's, configured) reads the warehouse as a run as of ``as_of`` judges it: the inputs and
    the record as they stood at the end of that day (``warehouse(..., as_of=)`` for a connection of its
    own). Its tables are left as they are: a page says which no step has made yet."""
    return judge_as_of(con, as_of, timezone)


def table_asset(group: str, **kwargs: Any):
    """``@asset`` of a table the warehouse keeps: its group, ``kind`` duckdb and the warehouse's pool, with
    ``deps``, ``description``."""
    return asset(group_name=group, kinds={"duckdb"}, pool=WAREHOUSE_POOL, **kwargs)


# The function of each check written beside its table (``table_check``), by check key: the Definitions run
# the checks of a stage as one step that calls them (pipelines.stages.check_steps).
CHECK_FUNCTIONS: dict[AssetCheckKey, Callable[..., AssetCheckResult]] = {}


def table_check(**kwargs: Any) -> Callable[[Callable[..., AssetCheckResult]], AssetChecksDefinition]:
    """``@asset_check`` of a table (``asset``, ``description``, ...), whose function is also kept in
    ``CHECK_FUNCTIONS``: the function's parameters are resources (``duckdb``, ``rules``, ``settings``)."""

    def define(fn: Callable[..., AssetCheckResult]) -> AssetChecksDefinition:
        checks_def = asset_check(**kwargs)(fn)
        CHECK_FUNCTIONS[next(iter(checks_def.check_keys))] = fn
        return checks_def

    return define


def table_result(con: duckdb.DuckDBPyConnection, table: str, **metadata: Any) -> MaterializeResult:
    """MaterializeResult with the table's row count, a preview and extra metadata."""
    md: dict[str, Any] = {
        "dagster/row_count": count(con, table),
        "table": table,
        "preview": MetadataValue.md(preview_markdown(con, table)),
    }
    md.update(metadata)
    return MaterializeResult(metadata=md)


def report_partition_rows(
    context: AssetExecutionContext, rows: Mapping[str, int], asset_key: str | None = None
) -> None:
    """Each partition of this run reports its own row count as ``dagster/row_count`` (``rows`` by
    partition key, from one GROUP BY; a key absent has none), not the whole table's.

    A run over a range of partitions (``BackfillPolicy.single_run``) is one step whose materialization
    Dagster records once per partition; metadata added with ``partition_key`` goes to that partition's
    record only, over what the step returns for all of them (``AssetExecutionContext.add_asset_metadata``).
    """
    for key in context.partition_keys:
        context.add_asset_metadata(
            {"dagster/row_count": int(rows.get(key, 0))}, asset_key=asset_key, partition_key=key
        )


def outputs(duckdb: DuckDBResource, settings: OutfallSettings) -> OutputPaths:
    """Where this run writes pages, letters and exports (the one rule: ``outfall.output_folders``)."""
    return output_paths(getattr(duckdb, "database", ""), settings.dashboards_dir)


def letters_dir(duckdb: DuckDBResource, settings: OutfallSettings, area: str) -> Path | None:
    """``<dashboards>/letters/<area>`` (sewer, stormwater); None when nothing is written."""
    return outputs(duckdb, settings).letters(area)


def check_rows(
    duckdb: DuckDBResource,
    query: str,
    params: list | None = None,
    table: str | None = None,
    *,
    as_of: dt.date | None = None,
) -> tuple[list[tuple], int | None]:
    """What an asset check's query finds and, given ``table``, that table's row count, on one connection
    (reading the inputs as of ``as_of``, the run's day)."""
    with warehouse(duckdb, as_of=as_of) as con:
        rows = con.execute(query, params).fetchall() if params else con.execute(query).fetchall()
        total = count(con, table) if table else None
    return rows, total
