"""Small helpers every asset module uses: opening the warehouse and reporting."""


import contextlib
from typing import Any, Iterator

import duckdb
from dagster import MaterializeResult, MetadataValue
from dagster_duckdb import DuckDBResource

from outfall.warehouse import configure, count, ensure_schema, preview_markdown

GROUP_SEWER = "sewer_administrator"
GROUP_STORMWATER = "stormwater_officer"
GROUP_BILLING = "billing"
GROUP_INGEST = "ingestion"
GROUP_DASHBOARDS = "dashboards"


@contextlib.contextmanager
def warehouse(resource: DuckDBResource) -> Iterator[duckdb.DuckDBPyConnection]:
    """A configured connection with every table created."""
    with resource.get_connection() as con:
        configure(con)
        ensure_schema(con)
        yield con


def table_result(con: duckdb.DuckDBPyConnection, table: str, **metadata: Any) -> MaterializeResult:
    """MaterializeResult with the table's row count, a preview and extra metadata."""
    md: dict[str, Any] = {
        "dagster/row_count": count(con, table),
        "table": table,
        "preview": MetadataValue.md(preview_markdown(con, table)),
    }
    md.update(metadata)
    return MaterializeResult(metadata=md)
