"""The record of a run: the day it judges by and where it writes (table ``outfall_run``).

The as-of day is fixed once, when the run's settings are set up (``OutfallSettings``):
--as-of, else today in the town's time zone at the start of the run. Every asset of the
run reads that same day, and this asset writes it down with the folders the run
writes to, so that a reader of the warehouse (and ``outfall export``) knows both.
"""

from collections.abc import Iterable

import duckdb
import pandas as pd
from dagster import MetadataValue
from dagster_duckdb import DuckDBResource

from assets.common import outputs, warehouse
from outfall.ingest.as_of import held_back
from outfall.resources import OutfallSettings, RulesResource
from outfall.rules import RulesError
from outfall.rules.tables import NotJudged
from outfall.versions import digest
from outfall.warehouse import replace_rows, sql, transaction


def _rules_versions(rules: RulesResource) -> str:
    try:
        return ", ".join(f"{j} {r.version}" for j, r in rules.all_rules().items())
    except RulesError as exc:  # the rules are checked again (and fail loudly) by the assets that apply them
        return f"unreadable: {exc}"


OUTFALL_RUN_DESCRIPTION = (
    "The settings of the latest run (table outfall_run): the day it judges overdue work by, fixed once "
    "when the run starts, the billing year, and the folders it reads and writes."
)


def outfall_run(duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource) -> tuple[str, dict]:
    """The record of the run's settings (table ``outfall_run``), written by the ingestion step
    (``assets.ingest.input_folders``): its data version (the hash of the row: what reads the day judged by
    is made again when it changes) and the metadata of its materialization."""
    paths = outputs(duckdb, settings)
    as_of = settings.as_of_date()
    row = {
        "as_of": as_of,
        "billing_year": settings.year or None,
        "data_dir": str(settings.data_path().resolve()),
        "dashboards_dir": None if paths.dashboards is None else str(paths.dashboards),
        "exports_dir": None if paths.exports is None else str(paths.exports),
        "rules_versions": _rules_versions(rules),
    }
    with warehouse(duckdb) as con:
        held = held_back(con, as_of, rules.timezone())
        with transaction(con):
            replace_rows(
                con,
                "held_back",
                pd.DataFrame(
                    held, columns=["dataset", "rows_after", "later_facts_after", "quarantined_after"]
                ),
            )
            con.execute(sql("delete_outfall_run"))
            con.execute(sql("insert_outfall_run"), row)
    # the town running Outfall is part of what its rows were judged by (a folder may hold several towns)
    version = digest(row, rules.jurisdiction())
    return version, {
        "as_of": str(as_of),
        "dashboards": str(paths.dashboards or "(none)"),
        "rows_after_the_day": sum(r[1] for r in held),
        "rows_after_the_day_by_folder": MetadataValue.json({d: r for d, r, _, _ in held if r}),
    }


def record_not_judged(
    con: duckdb.DuckDBPyConnection,
    asset_name: str,
    rows: Iterable[NotJudged] = (),
    sql_name: str | None = None,
) -> int:
    """Replace what ``asset_name`` could not judge (table not_judged): ``rows`` from Python, and/or the
    rows statement ``sql_name`` inserts from the asset's own tables. Call inside the asset's transaction."""
    con.execute(sql("delete_not_judged_of_asset"), {"asset": asset_name}).fetchall()
    for r in rows:
        con.execute(
            sql("insert_not_judged"),
            {
                "asset": asset_name,
                "subject": r.subject,
                "day": r.day,
                "section": r.section,
                "reason": r.reason,
            },
        ).fetchall()
    if sql_name is not None:
        con.execute(sql(sql_name), {"asset": asset_name}).fetchall()
    return int(con.execute(sql("count_not_judged_of_asset"), {"asset": asset_name}).fetchall()[0][0])


def replace_judged(
    con: duckdb.DuckDBPyConnection, not_judged: Iterable[NotJudged], **tables: pd.DataFrame | list[dict]
) -> None:
    """Replace each table's rows (a list of rows becomes a frame) and record what the asset of the first
    table, its own, could not judge. Call inside the asset's transaction."""
    for table, rows in tables.items():
        replace_rows(con, table, rows if isinstance(rows, pd.DataFrame) else pd.DataFrame(rows))
    record_not_judged(con, next(iter(tables)), not_judged)


def counts_by(con: duckdb.DuckDBPyConnection, table: str, column: str) -> dict[str, int]:
    """Rows of ``table`` per value of ``column`` (both identifiers from a constant of the caller)."""
    rows = con.execute(sql("select_counts_by_column").format(table=table, column=column)).fetchall()
    return {str(k): int(v) for k, v in rows}
