"""The ingestion step: every input folder loaded into its table (asset key = table), in one Dagster step.

Each folder's asset loads only files it has not loaded before (ledger ``ingested_files``), in one
transaction, and reports rows read, kept and quarantined per file so that read = kept + quarantined can
be seen in the UI. The same step reports the quarantine (with the partitions the loaded data give,
``assets.common.data_partitions``: the months that have readings, the years that have rates, which the
input sensor registers), records the run's settings (``outfall_run``) and runs the checks of the input
tables, Great Expectations in
a second process while the folders load (``outfall.gx_worker``). One step instead of thirty: each of
them was bookkeeping that Dagster paid for as a step of its own.

Each folder's data version is its files' content (``outfall.versions``: the ledger's names and SHA-256s),
the quarantine's that of every folder, the run record's its row (the day judged by, the folders). In a
run of the inputs alone (the input sensor's, the daily one, `outfall run`'s first) an asset is reported
only when its version changed (its spec is ``skippable``), so that what reads an unchanged folder is
not run again; the warehouse records each version (``_asset_versions``).
"""

import contextlib
import datetime as dt
from collections.abc import Iterator

from dagster import (
    AssetCheckKey,
    AssetCheckResult,
    AssetCheckSeverity,
    AssetCheckSpec,
    AssetExecutionContext,
    AssetKey,
    AssetSpec,
    DataVersion,
    Failure,
    MaterializeResult,
    MetadataValue,
    multi_asset,
)
from dagster_duckdb import DuckDBResource

from assets.checks import INPUT_CHECK_SPECS, run_input_checks, suite_parameters, validate_in_background
from assets.common import GROUP_INGEST, WAREHOUSE_POOL, data_partitions, held_open, warehouse
from assets.run import OUTFALL_RUN_DESCRIPTION, outfall_run
from outfall import gx_worker
from outfall.ingest.datasets import Context, Dataset
from outfall.ingest.engine import DatasetReport, load_dataset
from outfall.ingest.registry import all_datasets
from outfall.resources import OutfallSettings, RulesResource
from outfall.runlog import run_logger
from outfall.versions import (
    QUARANTINE,
    RUN_SETTINGS,
    UNPARTITIONED,
    digest,
    folder_versions,
    record_versions,
    recorded_versions,
)
from outfall.warehouse import configure, count, preview_markdown, sql, transaction

NO_FILES = digest("no files")  # the data version of a folder no file was loaded from
BACKFILL_TAG = "dagster/backfill"
PARTITIONS_METADATA = "partitions/"  # the quarantine's metadata: the partitions the loaded files give
PARTITION_WORDS = {"reading_month": "months of readings", "billing_year": "billing years"}
# A run with this tag (`outfall run`'s first) checks only the inputs it reports (whose files changed): the
# others' results stand from the run that loaded them. Without it every selected check runs, as a check
# guards the kept rows however they came there.
CHANGED_CHECKS_TAG = "outfall/checks"


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
        skippable=True,  # reported only when its files changed (``load_inputs``)
    )


INPUT_DATASETS = tuple(all_datasets())
QUARANTINE_DESCRIPTION = (
    "Every rejected input row with the reason a clerk can act on. Written by the ingestion of each "
    "folder; this asset reports it, by dataset and reason."
)
INGEST_SPECS = [
    *(dataset_spec(ds) for ds in all_datasets().values()),
    AssetSpec(
        QUARANTINE,
        group_name=GROUP_INGEST,
        kinds={"duckdb"},
        description=QUARANTINE_DESCRIPTION,
        skippable=True,
    ),
    AssetSpec(
        RUN_SETTINGS,
        group_name=GROUP_INGEST,
        kinds={"duckdb"},
        description=OUTFALL_RUN_DESCRIPTION,
        skippable=True,
    ),
]
# The checks of the input tables, run in this step once the folders are loaded (no extra deps: every
# table they read is loaded by this step).
NEW_FILES_CHECK = "check_validity_new_files"
INGEST_CHECK_SPECS = [
    AssetCheckSpec(s.name, asset=s.asset_key, description=s.description, blocking=s.blocking)
    for s in INPUT_CHECK_SPECS
] + [
    AssetCheckSpec(
        NEW_FILES_CHECK,
        asset=name,
        description="The files the latest run loaded into this folder's table: WARN when rows of them were "
        "refused (quarantined) or a file could not be read at all, with each reason and how many rows it "
        "refused. Nothing is lost: the refused rows are in the quarantine table, with what to correct.",
    )
    for name in INPUT_DATASETS
]


def new_files_result(con, ds: Dataset, loaded: DatasetReport, since: dt.datetime) -> AssetCheckResult:
    """The check ``NEW_FILES_CHECK`` of the files a run loaded into ``ds``'s table."""
    reasons = con.execute(
        sql("select_quarantine_reasons_since"), {"dataset": ds.name, "since": since}
    ).fetchall()
    rows = sum(n for _, n, _ in reasons)
    files = sum(f for _, _, f in reasons)
    table = "\n".join(f"| {reason} | {n} |" for reason, n, _ in reasons) or "| (none) | 0 |"
    said = [f"{rows} row{'s' if rows != 1 else ''} quarantined"] if rows - files else []
    said += [f"{files} file{'s' if files != 1 else ''} that could not be read"] if files else []
    return AssetCheckResult(
        asset_key=ds.name,
        check_name=NEW_FILES_CHECK,
        passed=not reasons,
        severity=AssetCheckSeverity.WARN,
        description=(
            f"{' and '.join(said)} in the {loaded.files_loaded} file(s) loaded: see the reasons"
            if reasons
            else f"every row of the {loaded.files_loaded} file(s) loaded was kept"
        ),
        metadata={
            "files_loaded": loaded.files_loaded,
            "rows_read": loaded.rows_read,
            "rows_quarantined": rows - files,
            "files_not_read": files,
            "reasons": MetadataValue.md("| reason | rows |\n|---|---|\n" + table),
        },
    )


def load_folder(context: AssetExecutionContext, con, ds: Dataset, settings, ctx) -> DatasetReport:
    """Load ``ds``'s new files, in a transaction of its own."""
    report = load_dataset(con, ds, settings.data_path(), ctx, dt.datetime.now(dt.UTC))
    context.log.info(
        f"{ds.name}: {report.files_loaded} new file(s), {report.rows_read} rows read, "
        f"{report.rows_kept} kept, {report.rows_quarantined} quarantined"
    )
    for note in report.notes:  # sheets of a workbook that belong to other folders: not quarantined
        context.log.info(f"{ds.name}: {note}")
        run_logger().info("%s: %s", ds.name, note)
    return report


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
        description="Loads every input folder's new files, reports the quarantine and the months that have "
        "readings and the years that have rates, records the run's settings, and checks the input tables. "
        "A folder whose files did not change is reported only when the run also makes what reads it.",
    )
    def _step(
        context: AssetExecutionContext,
        duckdb: DuckDBResource,
        settings: OutfallSettings,
        rules: RulesResource,
    ) -> Iterator:
        yield from load_inputs(context, datasets, duckdb, settings, rules)

    return _step


def reports_only_changes(context: AssetExecutionContext) -> bool:
    """Whether this run makes the inputs alone (the input sensor's run, the daily run, `outfall run`'s
    first): then a folder is reported only when its files changed, so that only what reads a changed
    folder runs again. A run that also makes what reads them (Materialize all) reports every folder it
    loads: what reads them runs in it, as asked."""
    return len(context.job_def.graph.nodes) == 1  # the run's job holds this step alone


def unseen_by(context: AssetExecutionContext, keys: set[AssetKey]) -> set[AssetKey]:
    """The ``keys`` this Dagster instance has no materialization of (a new instance: the daemon's first
    run reports every folder, so that what reads them is not left waiting for them). An ephemeral
    instance (`outfall run`'s) goes by the warehouse's record alone."""
    if context.instance.is_ephemeral or not keys:
        return set()
    seen = {r.asset_entry.asset_key for r in context.instance.get_asset_records(list(keys))}
    return {k for k in keys if k not in seen} | {
        r.asset_entry.asset_key
        for r in context.instance.get_asset_records(list(keys & seen))
        if r.asset_entry.last_materialization is None
    }


def load_inputs(
    context: AssetExecutionContext,
    datasets: list[Dataset],
    duckdb: DuckDBResource,
    settings: OutfallSettings,
    rules: RulesResource,
) -> Iterator:
    """What the ingestion step yields: each selected folder's asset, the quarantine and the run's record
    (each with its data version, and only when it changed if ``reports_only_changes``), then the selected
    checks."""
    selected = context.selected_asset_keys
    only_changes = reports_only_changes(context)
    unseen = unseen_by(context, set(selected))
    reported: set[AssetKey] = set()
    changed_checks = CHANGED_CHECKS_TAG in context.run.tags
    # A run of a real instance (the daemon's, the UI's) validates in its own worker, as `outfall run`
    # does (which has started one already); an ephemeral one (a test's materialize) in this process.
    own_worker = not context.instance.is_ephemeral and not gx_worker.active()
    # The warehouse is open for this step's length (not the run's): its loads, records and checks share
    # one open database instead of opening the file again each (about 25 ms each, a checkpoint on close).
    with held_open(duckdb), gx_worker.background() if own_worker else contextlib.nullcontext():
        if own_worker and gx_worker.worth_starting(settings.data_path()):
            gx_worker.start()
        ctx = ingestion_context(settings, rules)
        with warehouse(duckdb, ctx.timezone) as con:
            configure(con, settings.memory_limit, timezone=ctx.timezone)
            recorded = recorded_versions(con)
            changed: dict[tuple[str, str], str] = {}

            def report(key: str, version: str) -> bool:
                """Whether to report ``key`` (a new version is recorded: ``changed``)."""
                if recorded.get((key, UNPARTITIONED)) != version:
                    changed[(key, UNPARTITIONED)] = version
                    reported.add(AssetKey(key))
                elif AssetKey(key) in unseen or not only_changes:
                    reported.add(AssetKey(key))
                return AssetKey(key) in reported

            for ds in datasets:
                if AssetKey(ds.name) not in selected:
                    continue
                since = dt.datetime.now(dt.UTC)
                loaded = load_folder(context, con, ds, settings, ctx)
                version = folder_versions(con).get(ds.name) or NO_FILES
                if report(ds.name, version) or not changed_checks:
                    validate_in_background(context.run.run_id, duckdb, con, ds.name, suite_parameters(rules))
                if AssetKey(ds.name) in reported:
                    yield MaterializeResult(
                        asset_key=ds.name,
                        data_version=DataVersion(version),
                        metadata=_report_metadata(con, loaded),
                    )
                check = AssetCheckKey(AssetKey(ds.name), NEW_FILES_CHECK)
                if loaded.files_loaded and check in context.selected_asset_check_keys:
                    yield new_files_result(con, ds, loaded, since)
            partitions = data_partitions(con, rules.town_rules(), settings.as_of_date())
            if AssetKey(QUARANTINE) in selected:
                # with the partitions it reports (the sensor registers them): a new day may add a month
                version = digest(sorted(folder_versions(con).items()), partitions)
                if report(QUARANTINE, version):
                    yield quarantine_result(con, version, partitions)
            with transaction(con):
                record_versions(con, changed)
        if AssetKey(RUN_SETTINGS) in selected:
            version, metadata = outfall_run(duckdb, settings, rules)
            if report(RUN_SETTINGS, version):
                if (RUN_SETTINGS, UNPARTITIONED) in changed:
                    with warehouse(duckdb, ctx.timezone) as con, transaction(con):
                        record_versions(con, {(RUN_SETTINGS, UNPARTITIONED): version})
                yield MaterializeResult(
                    asset_key=RUN_SETTINGS, data_version=DataVersion(version), metadata=metadata
                )
        checks = {
            k for k in context.selected_asset_check_keys if not changed_checks or k.asset_key in reported
        }
        yield from run_input_checks(context.run.run_id, checks, duckdb, rules)
    refuse_a_backfill_without(context, partitions)


def refuse_a_backfill_without(context: AssetExecutionContext, partitions: dict[str, list[str]]) -> None:
    """A backfill (Materialize all) covers the partitions registered when it was launched: launched on a
    new instance before the input sensor registered the months and years the files give, it would bill
    no year and judge no month, and report success. Its ingestion step fails instead, saying why; the
    tables it loaded stay loaded and the sensor registers the partitions they give."""
    if BACKFILL_TAG not in context.run.tags:
        return
    missing = {
        name: [k for k in keys if k not in set(context.instance.get_dynamic_partitions(name))]
        for name, keys in partitions.items()
    }
    missing = {name: keys for name, keys in missing.items() if keys}
    if missing:
        said = "; ".join(f"{PARTITION_WORDS[name]} {', '.join(keys)}" for name, keys in missing.items())
        raise Failure(
            description=f"The files hold partitions that were not registered when this backfill was "
            f"launched ({said}): it would make no bills and judge no readings for them. The input sensor "
            f"registers them within a minute of this run; launch Materialize all again then."
        )


input_folders = build_input_folders(list(all_datasets().values()))


def build_ingest_asset(ds: Dataset):
    """A step that loads the one folder ``ds`` (a dataset registered after this module was imported)."""
    return build_input_folders([ds], name=f"load_{ds.name}", run_checks=False)


def quarantine_result(con, version: str, partitions: dict[str, list[str]]) -> MaterializeResult:
    by_dataset = con.execute(sql("select_quarantine_by_dataset")).fetchall()
    ledger = con.execute(sql("select_ingested_totals")).fetchall()
    table = "\n".join(f"| {d} | {r} | {k} | {q} | {'yes' if r == k + q else 'NO'} |" for d, r, k, q in ledger)
    return MaterializeResult(
        asset_key="quarantine",
        data_version=DataVersion(version),
        metadata={
            "dagster/row_count": count(con, "quarantine"),
            "by_dataset": MetadataValue.json({d: int(n) for d, n in by_dataset}),
            "rows_read_kept_quarantined": MetadataValue.md(
                "| dataset | read | kept | quarantined | balanced |\n|---|---|---|---|---|\n"
                + (table or "| | | | | |")
            ),
            "preview": MetadataValue.md(preview_markdown(con, "quarantine", 20)),
            # what the loaded files give: the input sensor registers them as partitions
            **{f"{PARTITIONS_METADATA}{name}": MetadataValue.json(keys) for name, keys in partitions.items()},
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
