"""Ingestion assets: one per input folder of the contract (asset key = table).

Each asset loads only files it has not loaded before (ledger
``ingested_files``), in one transaction, and reports rows read, kept and
quarantined per file so that read = kept + quarantined can be seen in the UI.
"""

import datetime as dt

from dagster import AssetExecutionContext, AssetsDefinition, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.checks import suite_parameters, validate_in_background
from assets.common import GROUP_INGEST, warehouse
from outfall.ingest.datasets import Context, Dataset
from outfall.ingest.engine import DatasetReport, load_dataset
from outfall.ingest.registry import all_datasets
from outfall.resources import OutfallSettings, RulesResource
from outfall.runlog import run_logger
from outfall.warehouse import configure, count, preview_markdown, sql


def _report_metadata(con, report: DatasetReport) -> dict:
    files = [f for f in report.files if not f.skipped]
    rows = (
        "\n".join(
            f"| {f.source_file} | {f.rows_read} | {f.rows_kept} | {f.rows_quarantined} | {f.rows_new} | "
            f"{f.rows_superseded} |"
            for f in files
        )
        or "| (no new files) | | | | | |"
    )
    totals = con.execute(sql("select_ingested_totals_of_dataset"), {"dataset": report.dataset}).fetchall()[0]
    return {
        "dagster/row_count": count(con, report.dataset),
        "files_loaded_this_run": report.files_loaded,
        "files_already_loaded": report.files_skipped,
        "rows_read_this_run": report.rows_read,
        "rows_kept_this_run": report.rows_kept,
        "rows_quarantined_this_run": report.rows_quarantined,
        "rows_read_all_files": int(totals[0]),
        "rows_kept_all_files": int(totals[1]),
        "rows_quarantined_all_files": int(totals[2]),
        "files": MetadataValue.md(
            "| file | read | kept | quarantined | new/changed | superseded |\n|---|---|---|---|---|---|\n"
            + rows
        ),
        "preview": MetadataValue.md(preview_markdown(con, report.dataset)),
    }


def ingestion_context(settings: OutfallSettings, rules: RulesResource) -> Context:
    """What reading the input folders needs of the rules: the town's local time zone, the jurisdictions
    found (a site's), the unit schedule in effect on the day judged and the notices' maximum period to
    correct, every version (a town without sewer rules has neither)."""
    town = rules.town_rules()
    schedule = town.sewer_units.at(settings.as_of_date()).model_dump() if town.sewer_units else {}
    correction = (
        tuple((v.starts, v.effective_to, v.max_days, v.citation) for v in town.notices.sewer_correction)
        if town.notices
        else ()
    )
    law = town.law("sewer_use").short if town.law_names and town.law_names.sewer_use else ""
    return Context(
        unit_schedule=schedule,
        sewer_correction=correction,
        sewer_law=law,
        timezone=rules.timezone(),
        jurisdictions=rules.jurisdictions(),
        rules_files=rules.load().files_found(),
    )


def build_ingest_asset(ds: Dataset) -> AssetsDefinition:
    @asset(
        name=ds.name,
        group_name=GROUP_INGEST,
        kinds={"duckdb"},
        description=f"{ds.description} Input folder `{ds.name}/` "
        f"({', '.join(ds.extensions)}); natural key {' + '.join(ds.key)}.",
        metadata={"input_folder": ds.name, "natural_key": list(ds.key), "serves": ds.group},
    )
    def _ingest(
        context: AssetExecutionContext,
        duckdb: DuckDBResource,
        settings: OutfallSettings,
        rules: RulesResource,
    ) -> MaterializeResult:
        ctx = ingestion_context(settings, rules)
        now = dt.datetime.now(dt.UTC)
        with warehouse(duckdb, ctx.timezone) as con:
            configure(con, settings.memory_limit, timezone=ctx.timezone)
            report = load_dataset(con, ds, settings.data_path(), ctx, now)  # in a transaction of its own
            validate_in_background(context.run.run_id, duckdb, con, ds.name, suite_parameters(rules))
            context.log.info(
                f"{ds.name}: {report.files_loaded} new file(s), {report.rows_read} rows read, "
                f"{report.rows_kept} kept, {report.rows_quarantined} quarantined"
            )
            for note in report.notes:  # sheets of a workbook that belong to other folders: not quarantined
                context.log.info(f"{ds.name}: {note}")
                run_logger().info("%s: %s", ds.name, note)
            return MaterializeResult(metadata=_report_metadata(con, report))

    return _ingest


# One ingestion asset per input folder: the contract's and the areas' own.
ingest_assets = [build_ingest_asset(ds) for ds in all_datasets().values()]
INPUT_DATASETS = tuple(all_datasets())


@asset(
    group_name=GROUP_INGEST,
    kinds={"duckdb"},
    deps=list(INPUT_DATASETS),
    description="Every rejected input row with the reason a clerk can act on. "
    "Written by the ingestion assets; this asset reports it, by dataset and reason.",
)
def quarantine(duckdb: DuckDBResource) -> MaterializeResult:
    with warehouse(duckdb) as con:
        by_dataset = con.execute(sql("select_quarantine_by_dataset")).fetchall()
        ledger = con.execute(sql("select_ingested_totals")).fetchall()
        table = "\n".join(
            f"| {d} | {r} | {k} | {q} | {'yes' if r == k + q else 'NO'} |" for d, r, k, q in ledger
        )
        return MaterializeResult(
            metadata={
                "dagster/row_count": count(con, "quarantine"),
                "by_dataset": MetadataValue.json({d: int(n) for d, n in by_dataset}),
                "rows_read_kept_quarantined": MetadataValue.md(
                    "| dataset | read | kept | quarantined | balanced |\n|---|---|---|---|---|\n"
                    + (table or "| | | | | |")
                ),
                "preview": MetadataValue.md(preview_markdown(con, "quarantine", 20)),
            }
        )


def ingest_asset(name: str) -> AssetsDefinition:
    """The ingestion asset of one input dataset (for tests and selections)."""
    for asset_def in ingest_assets:
        if asset_def.key.to_user_string() == name:
            return asset_def
    raise KeyError(f"no ingestion asset for dataset '{name}'")
