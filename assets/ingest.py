"""The ingestion step: every input folder loaded into its table (asset key = table), in one Dagster step.

Each folder's asset loads only files it has not loaded before (ledger ``ingested_files``), in one
transaction, and reports rows read, kept and quarantined per file so that read = kept + quarantined can
be seen in the UI. The same step reports the quarantine, records the run's settings (``outfall_run``),
registers the partitions the loaded data give (``assets.common.register_partitions``: the months that
have readings, the years that have rates) and runs the checks of the input tables, Great Expectations in
a second process while the folders load (``outfall.gx_worker``). One step instead of thirty: each of
them was bookkeeping that Dagster paid for as a step of its own.
"""

import contextlib
import datetime as dt
from collections.abc import Iterator

from dagster import (
    AssetCheckSpec,
    AssetExecutionContext,
    AssetKey,
    AssetSpec,
    MaterializeResult,
    MetadataValue,
    multi_asset,
)
from dagster_duckdb import DuckDBResource

from assets.checks import INPUT_CHECK_SPECS, run_input_checks, suite_parameters, validate_in_background
from assets.common import GROUP_INGEST, WAREHOUSE_POOL, register_partitions, warehouse
from assets.run import OUTFALL_RUN_DESCRIPTION, outfall_run
from outfall import gx_worker
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
    found (a site's) and the unit schedule in effect on the day judged (a town without sewer rules has
    none)."""
    town = rules.town_rules()
    schedule = town.sewer_units.at(settings.as_of_date()).model_dump() if town.sewer_units else {}
    return Context(
        unit_schedule=schedule,
        timezone=rules.timezone(),
        jurisdictions=rules.jurisdictions(),
        rules_files=rules.load().files_found(),
    )


def dataset_spec(ds: Dataset) -> AssetSpec:
    return AssetSpec(
        ds.name,
        group_name=GROUP_INGEST,
        kinds={"duckdb"},
        description=f"{ds.description} Input folder `{ds.name}/` "
        f"({', '.join(ds.extensions)}); natural key {' + '.join(ds.key)}.",
        metadata={"input_folder": ds.name, "natural_key": list(ds.key), "serves": ds.group},
    )


INPUT_DATASETS = tuple(all_datasets())
QUARANTINE_DESCRIPTION = (
    "Every rejected input row with the reason a clerk can act on. Written by the ingestion of each "
    "folder; this asset reports it, by dataset and reason."
)
INGEST_SPECS = [
    *(dataset_spec(ds) for ds in all_datasets().values()),
    AssetSpec("quarantine", group_name=GROUP_INGEST, kinds={"duckdb"}, description=QUARANTINE_DESCRIPTION),
    AssetSpec("outfall_run", group_name=GROUP_INGEST, kinds={"duckdb"}, description=OUTFALL_RUN_DESCRIPTION),
]
# The checks of the input tables, run in this step once the folders are loaded (no extra deps: every
# table they read is loaded by this step).
INGEST_CHECK_SPECS = [
    AssetCheckSpec(s.name, asset=s.asset_key, description=s.description, blocking=s.blocking)
    for s in INPUT_CHECK_SPECS
]


def load_folder(
    context: AssetExecutionContext, con, ds: Dataset, duckdb, settings, rules, ctx
) -> MaterializeResult:
    """Load ``ds``'s new files (in a transaction of its own) and start validating its kept rows."""
    report = load_dataset(con, ds, settings.data_path(), ctx, dt.datetime.now(dt.UTC))
    validate_in_background(context.run.run_id, duckdb, con, ds.name, suite_parameters(rules))
    context.log.info(
        f"{ds.name}: {report.files_loaded} new file(s), {report.rows_read} rows read, "
        f"{report.rows_kept} kept, {report.rows_quarantined} quarantined"
    )
    for note in report.notes:  # sheets of a workbook that belong to other folders: not quarantined
        context.log.info(f"{ds.name}: {note}")
        run_logger().info("%s: %s", ds.name, note)
    return MaterializeResult(asset_key=ds.name, metadata=_report_metadata(con, report))


def build_input_folders(datasets: list[Dataset], name: str = "input_folders", run_checks: bool = True):
    """The ingestion step of ``datasets`` (every registered one: ``input_folders``)."""
    specs = [dataset_spec(ds) for ds in datasets]
    if name == "input_folders":
        specs += INGEST_SPECS[len(INGEST_SPECS) - 2 :]  # quarantine and outfall_run

    @multi_asset(
        name=name,
        specs=specs,
        check_specs=INGEST_CHECK_SPECS if run_checks else None,
        can_subset=True,
        pool=WAREHOUSE_POOL,
        description="Loads every input folder's new files, reports the quarantine, records the run's "
        "settings, registers the months that have readings and the years that have rates as partitions, "
        "and checks the input tables.",
    )
    def _step(
        context: AssetExecutionContext,
        duckdb: DuckDBResource,
        settings: OutfallSettings,
        rules: RulesResource,
    ) -> Iterator:
        yield from load_inputs(context, datasets, duckdb, settings, rules)

    return _step


def load_inputs(
    context: AssetExecutionContext,
    datasets: list[Dataset],
    duckdb: DuckDBResource,
    settings: OutfallSettings,
    rules: RulesResource,
) -> Iterator:
    """What the ingestion step yields: each selected folder's asset, the quarantine and the run's record,
    then the selected checks."""
    selected = context.selected_asset_keys
    # A run of a real instance (the daemon's, the UI's) validates in its own worker, as `outfall run`
    # does (which has started one already); an ephemeral one (a test's materialize) in this process.
    own_worker = not context.instance.is_ephemeral and not gx_worker.active()
    with gx_worker.background() if own_worker else contextlib.nullcontext():
        if own_worker and gx_worker.worth_starting(settings.data_path()):
            gx_worker.start()
        ctx = ingestion_context(settings, rules)
        with warehouse(duckdb, ctx.timezone) as con:
            configure(con, settings.memory_limit, timezone=ctx.timezone)
            for ds in datasets:
                if AssetKey(ds.name) in selected:
                    yield load_folder(context, con, ds, duckdb, settings, rules, ctx)
            if AssetKey("quarantine") in selected:
                yield quarantine_result(con)
            registered = register_partitions(context.instance, con, rules.town_rules(), settings.as_of_date())
        if registered:
            context.log.info(f"partitions added: {registered}")
        if AssetKey("outfall_run") in selected:
            yield MaterializeResult(
                asset_key="outfall_run", metadata=outfall_run(duckdb, settings, rules).metadata
            )
        yield from run_input_checks(context.run.run_id, context.selected_asset_check_keys, duckdb, rules)


input_folders = build_input_folders(list(all_datasets().values()))


def build_ingest_asset(ds: Dataset):
    """A step that loads the one folder ``ds`` (a dataset registered after this module was imported)."""
    return build_input_folders([ds], name=f"load_{ds.name}", run_checks=False)


def quarantine_result(con) -> MaterializeResult:
    by_dataset = con.execute(sql("select_quarantine_by_dataset")).fetchall()
    ledger = con.execute(sql("select_ingested_totals")).fetchall()
    table = "\n".join(f"| {d} | {r} | {k} | {q} | {'yes' if r == k + q else 'NO'} |" for d, r, k, q in ledger)
    return MaterializeResult(
        asset_key="quarantine",
        metadata={
            "dagster/row_count": count(con, "quarantine"),
            "by_dataset": MetadataValue.json({d: int(n) for d, n in by_dataset}),
            "rows_read_kept_quarantined": MetadataValue.md(
                "| dataset | read | kept | quarantined | balanced |\n|---|---|---|---|---|\n"
                + (table or "| | | | | |")
            ),
            "preview": MetadataValue.md(preview_markdown(con, "quarantine", 20)),
        },
    )


# The ingestion step; a dataset's "asset" for tests and selections is that step (it loads every folder
# present; a folder that is absent gives an empty table).
ingest_assets = [input_folders]


def ingest_asset(name: str):
    """The step that loads the input folder ``name`` (KeyError for a folder no spec declares)."""
    if name not in all_datasets():
        raise KeyError(f"no ingestion asset for dataset '{name}'")
    return input_folders
