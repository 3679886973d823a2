"""What an operator sees of each asset in the UI: its owner (the person it serves), tags, the warehouse
table it is (``dagster/table_name``) and that table's columns (``dagster/column_schema``).

Added to the assets' specs when the Definitions are built, from what the assets already say (their group,
the folder's ``serves``) and from the warehouse's own DDL (``assets.common.schema_ddl``, run once in an
in-memory DuckDB): nothing to keep in step by hand.
"""

from __future__ import annotations

from functools import lru_cache

from dagster import AssetsDefinition, AssetSpec, TableColumn, TableSchema

from assets.common import GROUP_BILLING, GROUP_INGEST, GROUP_SEWER, GROUP_STORMWATER

# The three areas, as Dagster owners (a team each: the Superintendent's, the officer's, the clerk's), named
# as their group, their assets' package, their SQL and their pages are (sewer, stormwater, billing).
SEWER, STORMWATER, BILLING = (f"team:{area}" for area in (GROUP_SEWER, GROUP_STORMWATER, GROUP_BILLING))
OWNERS_BY_GROUP = {GROUP_SEWER: SEWER, GROUP_STORMWATER: STORMWATER, GROUP_BILLING: BILLING}
AREA_BY_OWNER = {owner: group for group, owner in OWNERS_BY_GROUP.items()}
# The pages and letters (group dashboards) by the words of their key.
OWNER_BY_WORD = {
    GROUP_SEWER: SEWER,
    "pretreatment": SEWER,
    GROUP_STORMWATER: STORMWATER,
    GROUP_BILLING: BILLING,
}
SERVES = OWNERS_BY_GROUP


@lru_cache(maxsize=1)
def warehouse_columns() -> dict[str, list[tuple[str, str]]]:
    """Every table of the warehouse's DDL with its columns and types, in order."""
    import duckdb

    from assets.common import schema_ddl
    from outfall.warehouse import ensure_schema

    con = duckdb.connect(":memory:")
    try:
        ensure_schema(con, schema_ddl())
        rows = con.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = 'main' ORDER BY table_name, ordinal_position"
        ).fetchall()
    finally:
        con.close()
    tables: dict[str, list[tuple[str, str]]] = {}
    for table, column, kind in rows:
        tables.setdefault(table, []).append((column, kind))
    return tables


def owners_of(spec: AssetSpec) -> list[str]:
    """The person an asset serves; the input folders and the index serve whom their folder serves, or all."""
    if spec.group_name in OWNERS_BY_GROUP:
        return [OWNERS_BY_GROUP[spec.group_name]]
    serves = (spec.metadata or {}).get("serves")
    if spec.group_name == GROUP_INGEST and serves in SERVES:
        return [SERVES[serves]]
    name = spec.key.to_user_string()
    found = [owner for word, owner in OWNER_BY_WORD.items() if word in name]
    return found[:1] or [SEWER, STORMWATER, BILLING]


def describe(spec: AssetSpec) -> AssetSpec:
    owners = owners_of(spec)
    tags = {"area": AREA_BY_OWNER[owners[0]] if len(owners) == 1 else "town"}
    if spec.group_name == GROUP_INGEST:
        tags["layer"] = "inputs"
    metadata = {}
    table = spec.key.to_user_string()
    columns = warehouse_columns().get(table)
    if columns is not None:
        metadata["dagster/table_name"] = f"main.{table}"
        metadata["dagster/column_schema"] = TableSchema(
            columns=[TableColumn(name=c, type=t) for c, t in columns]
        )
    return spec.replace_attributes(owners=owners).merge_attributes(tags=tags, metadata=metadata)


def with_operator_metadata(assets_def: AssetsDefinition) -> AssetsDefinition:
    """``assets_def`` with each spec's owners, tags, table name and column schema."""
    return assets_def.map_asset_specs(describe)
