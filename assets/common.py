"""Small helpers every asset module uses: opening the warehouse and reporting."""


import contextlib
from pathlib import Path
from typing import Any, Iterator

import duckdb
from dagster import MaterializeResult, MetadataValue
from dagster_duckdb import DuckDBResource

from outfall.resources import OutfallSettings

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
        try:
            configure(con)
            ensure_schema(con)
            yield con
        finally:
            # Close even when the step fails, so the file is not left open in
            # this process (a later read-only connection would be refused).
            con.close()


def table_result(con: duckdb.DuckDBPyConnection, table: str, **metadata: Any) -> MaterializeResult:
    """MaterializeResult with the table's row count, a preview and extra metadata."""
    md: dict[str, Any] = {
        "dagster/row_count": count(con, table),
        "table": table,
        "preview": MetadataValue.md(preview_markdown(con, table)),
    }
    md.update(metadata)
    return MaterializeResult(metadata=md)


def output_dir(duckdb: DuckDBResource, settings: OutfallSettings) -> Path | None:
    """Where pages and letters go: settings.dashboards_dir, else a ``dashboards``
    folder beside the warehouse file (None for an in-memory warehouse)."""
    if settings.dashboards_dir:
        return Path(settings.dashboards_dir).expanduser().resolve()
    database = str(getattr(duckdb, "database", "") or "")
    if not database or database.startswith(":memory:") or database.startswith("md:"):
        return None
    return Path(database).expanduser().resolve().parent / "dashboards"


def letters_dir(duckdb: DuckDBResource, settings: OutfallSettings, area: str) -> Path | None:
    """``<dashboards>/letters/<area>`` (sewer, stormwater)."""
    base = output_dir(duckdb, settings)
    return None if base is None else base / "letters" / area
