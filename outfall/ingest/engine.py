"""Ingestion of one dataset folder into its DuckDB table, in the database.

For each file not loaded before (ledger ``ingested_files``: name + sha256; a file whose stamp
of size, times and inode is the ledger's is not read at all):
DuckDB reads it (``read_csv`` with every column as text, ``read_parquet``; a
workbook through openpyxl and Arrow), one query compiled from the dataset's
spec (``outfall.ingest.compile``) types every cell and gives every row its
reason or none; rejected rows go to ``quarantine``, kept rows are merged under
the natural key (a corrected re-send supersedes; the old row goes to
``<table>_history``). No Python touches a row of a CSV or Parquet file. Call it
inside one transaction per dataset.

A file loaded on its own is first tried straight (``straight.load_straight``): its kept rows
are inserted as they are judged, then checked (no two share a key, none shares one
with a stored row, no local time occurs twice, every row kept or quarantined). Only
when a check fails are they deleted again and the file loaded the careful way above,
through a scratch copy of its judged rows (``_judged``, ``judging.judge``). Flow's check is made from its
new rows' hourly summaries, which are then kept (``outfall.flow_hours``).

Invariant, per file and per dataset: rows read = rows kept + rows quarantined.

A file that cannot be read is one quarantine row (row 0) naming it and what is wrong with it, and
the dataset's other files load. A Parquet file's footer is read on a connection of its own
(``judging.side``) before the file is read in the dataset's transaction. A file that breaks partway
through its reading (a damaged row group, a CSV line that stops the reader) fails the statement
reading it, and DuckDB then aborts the whole transaction: ``load_dataset`` rolls it back and loads
the dataset again, from the start, with that file as its quarantine row (no savepoints: nothing of
the first attempt is kept, so a killed run leaves nothing half-written and a re-run duplicates
nothing). A failure costs one more pass over the dataset's new files; a run without one costs
nothing.

New Parquet files of one layout, and new UTF-8 CSV files of one header, are judged together, up
to ``batch.BATCH_MAX_ROWS`` rows in one statement (a CSV file's rows reckoned from its size,
``batch.CSV_BYTES_PER_ROW``; its rows read with ``read_csv`` of the list of files, each row's file
carried along; a group with a line DuckDB could not read as a row is loaded file by file, which
quarantines the line) (one query over many small files uses every core; one per file ran on one core and
paid a dozen statements per file), with each row's file carried along: file by file, the rows,
row numbers, quarantine, ledger and counts are those of loading them one at a time. The batch is
merged in one insert only when no two of its files share a natural key and none of its keys is
in the table already; otherwise each file is loaded on its own, in order (a later file
supersedes an earlier one, as always).

Row numbers (``source_row``, quarantine ``row_number``): 1 is the first data
row after the header; blank lines are not rows and are not counted; a quoted
cell with line breaks is one row. DuckDB numbers rejected CSV lines by record
with blank lines counted; the engine converts those numbers (see single._renumber).

The modules: this one walks a folder and keeps the ledger; ``batch.py`` judges new files together;
``single.py`` loads a CSV or Parquet file on its own (``straight.py``: straight into its table);
``workbook.py`` a workbook's sheets; ``judging.py`` is what they share (the reports, the judging
into ``_judged``, quarantine and the merge under the natural key).
"""

from __future__ import annotations

import datetime as dt
import shutil
import tempfile
from pathlib import Path

import duckdb

from outfall import flow_hours, progress
from outfall.ingest import batch, compile as cq, files as fs
from outfall.ingest.batch import BatchUnreadable
from outfall.ingest.datasets import Context, Dataset
from outfall.ingest.judging import DatasetReport, FileReport, at_fault, key_words, whole_file_problem
from outfall.ingest.registry import all_datasets
from outfall.ingest.single import CSV_BROKEN, PARQUET_CUT, PARQUET_DAMAGED, PARQUET_UNREADABLE, load_file
from outfall.warehouse import run_script, sql, transaction


class SchemaMismatch(RuntimeError):
    """The warehouse's input table does not have the columns its spec declares."""


def check_table(con, ds: Dataset) -> None:
    """Raise when the table's columns are not exactly the spec's (names and types)."""
    rows = con.execute(sql("select_table_columns"), {"table": ds.name, "schema": "main"}).fetchall()
    have = {n: t for n, t in rows}
    want = {n: t for n, t in cq.expected_columns(ds)}
    norm = {"TIMESTAMPTZ": "TIMESTAMP WITH TIME ZONE"}
    missing = [n for n in want if n not in have]
    extra = [n for n in have if n not in want]
    wrong = [
        f"{n} is {have[n]}, not {norm.get(t, t)}"
        for n, t in want.items()
        if n in have and have[n] != norm.get(t, t)
    ]
    if missing or extra or wrong:
        parts = (
            ([f"missing {', '.join(missing)}"] if missing else [])
            + ([f"unexpected {', '.join(extra)}"] if extra else [])
            + wrong
        )
        raise SchemaMismatch(
            f"the warehouse table {ds.name} does not match its dataset spec: {'; '.join(parts)}"
        )


class FileUnreadable(Exception):
    """A file broke partway through its reading, inside the dataset's transaction (which DuckDB has
    then aborted): ``load_dataset`` loads the dataset again with the file as one quarantine row."""

    def __init__(self, rel: str, reason: str):
        super().__init__(f"{rel}: {reason}")
        self.rel, self.reason = rel, reason


def _unreadable_reason(rel: str) -> str:
    """What is wrong with a file whose reading broke partway, in plain words (DuckDB's own message
    names paths and settings, and is not echoed)."""
    suffix = Path(rel).suffix.lower()
    if suffix == ".parquet":
        return PARQUET_DAMAGED
    if suffix == ".csv":
        return CSV_BROKEN
    return "the file cannot be read to its end (part of it is damaged); save it again and send it again"


def load_dataset(
    con: duckdb.DuckDBPyConnection, ds: Dataset, data_dir: Path, ctx: Context, now: dt.datetime | None = None
) -> DatasetReport:
    """``ingest_dataset`` in one transaction of its own; a file that breaks partway through its
    reading aborts it, and the dataset is loaded again with that file as its quarantine row."""
    now = now or dt.datetime.now(dt.UTC)
    unreadable: dict[str, str] = {}
    alone: set[str] = set()
    while True:
        try:
            with transaction(con):
                return ingest_dataset(con, ds, data_dir, ctx, now, unreadable=unreadable, alone=alone)
        except FileUnreadable as exc:
            if exc.rel in unreadable:
                raise
            unreadable[exc.rel] = exc.reason
        except BatchUnreadable as exc:
            if alone.issuperset(exc.rels):
                raise
            alone.update(exc.rels)


def ingest_dataset(
    con: duckdb.DuckDBPyConnection,
    ds: Dataset,
    data_dir: Path,
    ctx: Context,
    now: dt.datetime | None = None,
    *,
    unreadable: dict[str, str] | None = None,
    alone: set[str] | None = None,
) -> DatasetReport:
    """Load every new or changed file of ``data_dir/<dataset>`` (call inside a transaction; or call
    ``load_dataset``). ``unreadable``: files (by name in the folder) known to break partway through
    their reading, with what is wrong with them: each is one quarantine row. ``alone``: Parquet
    files read one by one, never judged with others. A file that breaks partway raises
    FileUnreadable (BatchUnreadable: a group of them), the transaction then being aborted."""
    now = now or dt.datetime.now(dt.UTC)
    unreadable = unreadable or {}
    alone = alone or set()
    ds = cq.for_town(ds, ctx)  # the town's codes: required where its rules list them
    con.execute(cq.create_table_sql(ds)).fetchall()
    check_table(con, ds)
    report = DatasetReport(ds.name)
    if ds.hourly_summaries:
        report.summaries = flow_hours.summaries_current(con)
    # name -> (sha256, stamp) of the file as last loaded
    ledger = {
        name: (digest, stamp)
        for name, digest, stamp in con.execute(sql("select_ingested_ledger"), {"dataset": ds.name}).fetchall()
    }
    folder = Path(data_dir) / ds.name
    entries = fs.scan_folder(folder, Path(data_dir))
    if not entries:
        return report
    # the vocabularies the judging reads, only when a file may be read (else every run would make
    # them for every folder with files, for files unchanged since they were loaded)
    if not all(_unchanged(entry, ledger) for entry in entries):
        cq.create_lookups(con, all_datasets().values(), ctx)
    tmp = _scratch_dir(con)

    def one(entry: fs.InputEntry, facts: fs.FileFacts | None) -> None:
        _ingest_entry(con, ds, entry, ledger, ctx, now, report, tmp, facts)

    try:
        pending: list[tuple[fs.InputEntry, fs.FileFacts]] = []
        for entry in entries:
            held_back = entry.rel in alone or entry.rel in unreadable
            facts = None if held_back else batch.new_batchable(ds, entry, ledger)
            if facts is not None:
                pending.append((entry, facts))
                continue
            batch.ingest_batch(con, ds, pending, ctx, now, report, one)
            pending = []
            _ingest_entry(con, ds, entry, ledger, ctx, now, report, tmp, unreadable=unreadable.get(entry.rel))
        batch.ingest_batch(con, ds, pending, ctx, now, report, one)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if report.summaries and report.files_loaded:
        flow_hours.mark_current(con)
    return report


def _scratch_dir(con) -> Path:
    """A private folder for transcoded copies, in the warehouse's temp folder."""
    base = None
    try:
        setting = con.execute("SELECT current_setting('temp_directory')").fetchall()[0][0]
        if setting:
            base = Path(setting)
    except duckdb.Error:
        pass
    if base is None:
        base = Path(tempfile.gettempdir())
    base.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix="outfall-ingest-", dir=base))


def _unchanged(entry: fs.InputEntry, ledger) -> bool:
    """Whether the file is as it was loaded: its stamp (size, times, inode) that of the ledger."""
    stamp = ledger.get(entry.rel, (None, None))[1]
    return entry.problem is None and stamp is not None and fs.current_stamp(entry.path) == stamp


def _ingest_entry(
    con,
    ds,
    entry: fs.InputEntry,
    ledger,
    ctx,
    now,
    report,
    tmp,
    facts: fs.FileFacts | None = None,
    unreadable: str | None = None,
) -> None:
    rel = entry.rel
    if facts is None and _unchanged(entry, ledger):
        report.files.append(FileReport(rel, skipped=True))  # the file loaded then: not read again
        return
    if entry.problem is None and facts is None:
        try:
            facts = fs.inspect_file(
                entry.path, check_text=entry.path.suffix.lower() == ".csv" or rel.lower().endswith(".csv")
            )
        except PermissionError:
            entry = fs.InputEntry(
                rel, None, "the file cannot be read (permission denied); check its permissions"
            )
        except OSError:
            entry = fs.InputEntry(rel, None, "the file cannot be read; check that it is a regular file")
    digest = facts.sha256 if facts else entry.pseudo_digest()
    if rel in ledger and ledger[rel][0] == digest:
        if facts is not None and facts.stamp is not None and facts.stamp != ledger[rel][1]:
            run_script(
                con,
                sql("update_ingested_file_stamp"),
                {"dataset": ds.name, "source_file": rel, "sha256": digest, "file_stamp": facts.stamp},
            )
        report.files.append(FileReport(rel, skipped=True))
        return
    if rel in ledger:
        run_script(con, sql("delete_file_loads"), {"dataset": ds.name, "source_file": rel})
    progress.reading(ds.name, rel)
    if entry.problem is not None:
        fr = whole_file_problem(con, ds, rel, entry.problem, now)
        size = None
    elif unreadable is not None:  # it broke partway through its reading in an earlier attempt
        fr = whole_file_problem(con, ds, rel, unreadable, now)
        size = facts.size
    else:
        try:
            fr = load_file(con, ds, entry.path, rel, facts, ctx, now, tmp)
        except duckdb.Error as exc:
            if at_fault(exc) is None:
                raise
            raise FileUnreadable(rel, _unreadable_reason(rel)) from exc
        size = facts.size
    _record_file(con, ds, fr, digest, size, now, report, facts.stamp if facts else None)


def _record_file(
    con,
    ds,
    fr: FileReport,
    digest: str,
    size: int | None,
    now,
    report: DatasetReport,
    stamp: str | None = None,
) -> None:
    """The file's ledger entry and its report."""
    run_script(
        con,
        sql("insert_ingested_file"),
        {
            "dataset": ds.name,
            "source_file": fr.source_file,
            "sha256": digest,
            "size_bytes": size,
            "file_stamp": stamp,
            "now": now,
            "rows_read": fr.rows_read,
            "rows_kept": fr.rows_kept,
            "rows_quarantined": fr.rows_quarantined,
            "rows_new": fr.rows_new,
            "rows_superseded": fr.rows_superseded,
            "rows_left_blank": fr.rows_left_blank,
            "prefilled": fr.prefilled,
        },
    )
    if fr.prefilled and fr.rows_quarantined:
        con.execute(
            sql("mark_prefilled_quarantine"), {"dataset": ds.name, "source_file": fr.source_file, "now": now}
        ).fetchall()
    report.files.append(fr)
    if report.summaries is not None:
        if fr.straight and report.summaries:
            report.summaries = flow_hours.keep_staged(con, fr.hours_summarised)
        else:
            flow_hours.drop_staged(con)
            report.summaries = report.summaries and not (fr.rows_new or fr.rows_superseded)
    progress.rows(ds.name, fr.rows_read)


__all__ = [
    "CSV_BROKEN",
    "PARQUET_CUT",
    "PARQUET_DAMAGED",
    "PARQUET_UNREADABLE",
    "BatchUnreadable",
    "DatasetReport",
    "FileReport",
    "FileUnreadable",
    "SchemaMismatch",
    "check_table",
    "ingest_dataset",
    "key_words",
    "load_dataset",
]
