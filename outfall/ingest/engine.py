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

A file loaded on its own is first tried straight (``_load_straight``): its kept rows
are inserted as they are judged, then checked (no two share a key, none shares one
with a stored row, no local time occurs twice, every row kept or quarantined). Only
when a check fails are they deleted again and the file loaded the careful way above,
through a scratch copy of its judged rows (``_judged``). Flow's check is made from its
new rows' hourly summaries, which are then kept (``outfall.flow_hours``).

Invariant, per file and per dataset: rows read = rows kept + rows quarantined.

A file that cannot be read is one quarantine row (row 0) naming it and what is wrong with it, and
the dataset's other files load. A Parquet file's footer is read on a connection of its own
(``_side``) before the file is read in the dataset's transaction. A file that breaks partway
through its reading (a damaged row group, a CSV line that stops the reader) fails the statement
reading it, and DuckDB then aborts the whole transaction: ``load_dataset`` rolls it back and loads
the dataset again, from the start, with that file as its quarantine row (no savepoints: nothing of
the first attempt is kept, so a killed run leaves nothing half-written and a re-run duplicates
nothing). A failure costs one more pass over the dataset's new files; a run without one costs
nothing.

New Parquet files of one layout, and new UTF-8 CSV files of one header, are judged together, up
to ``BATCH_MAX_ROWS`` rows in one statement (a CSV file's rows reckoned from its size,
``CSV_BYTES_PER_ROW``; its rows read with ``read_csv`` of the list of files, each row's file
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
with blank lines counted; the engine converts those numbers (see _renumber).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import shutil
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from outfall import flow_hours, progress
from outfall.ingest import compile as cq, files as fs, parse, xlsx
from outfall.ingest.datasets import PREFILLED_KEY, Context, Dataset
from outfall.ingest.parse import clean_header, ident, lit
from outfall.ingest.registry import all_datasets
from outfall.warehouse import run_script, sql, table_columns, transaction

PROVENANCE = tuple(n for n, _ in cq.PROVENANCE)
BATCH_MAX_ROWS = 2_000_000  # rows of new Parquet or CSV files judged in one statement (0: one file at a time)
CSV_BYTES_PER_ROW = 40  # a meter reading's line: what a CSV file's size is reckoned in rows at
# A CSV file larger than this is loaded on its own: straight into its table (_load_straight), without
# the scratch copy a group is judged into, which costs more than the file's own reading saves.
CSV_GROUP_MAX_BYTES = 8 << 20


@dataclass
class FileReport:
    source_file: str
    rows_read: int = 0
    rows_kept: int = 0
    rows_quarantined: int = 0
    rows_new: int = 0
    rows_superseded: int = 0
    rows_left_blank: int = 0  # rows Outfall prefilled that a person left blank: not rows, nothing recorded
    prefilled: bool = False  # a sheet Outfall prefilled for a person's answers (exports/to_record.xlsx)
    skipped: bool = False  # already loaded, unchanged
    straight: bool = False  # judged straight into the table (_load_straight)
    hours_summarised: bool = False  # flow: an hour of its new rows was summarised already
    notes: list[str] = field(default_factory=list)  # for the run log: what was left for other folders


@dataclass
class DatasetReport:
    dataset: str
    files: list[FileReport] = field(default_factory=list)
    # the hourly summaries (a dataset that has them): whether they still describe the table, every
    # file that changed it having added its own (outfall/flow_hours.py); None: a dataset without
    summaries: bool | None = None

    def total(self, attr: str) -> int:
        return sum(getattr(f, attr) for f in self.files if not f.skipped)

    @property
    def rows_read(self) -> int:
        return self.total("rows_read")

    @property
    def rows_kept(self) -> int:
        return self.total("rows_kept")

    @property
    def rows_quarantined(self) -> int:
        return self.total("rows_quarantined")

    @property
    def rows_left_blank(self) -> int:
        return self.total("rows_left_blank")

    @property
    def notes(self) -> list[str]:
        return [n for f in self.files for n in f.notes]

    @property
    def files_loaded(self) -> int:
        return sum(1 for f in self.files if not f.skipped)

    @property
    def files_skipped(self) -> int:
        return sum(1 for f in self.files if f.skipped)


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


class BatchUnreadable(Exception):
    """A group of Parquet files judged together broke partway: ``load_dataset`` loads the dataset
    again with each of them read on its own, so that the file at fault is found."""

    def __init__(self, rels: list[str]):
        super().__init__(", ".join(rels))
        self.rels = rels


# DuckDB's errors that are not the file's: the machine's (memory, disk), an interruption, Outfall's own.
_NOT_THE_FILE = (
    duckdb.OutOfMemoryException,
    duckdb.InterruptException,
    duckdb.CatalogException,
    duckdb.InternalException,
    duckdb.FatalException,
    duckdb.ConnectionException,
)


def _at_fault(exc: BaseException) -> duckdb.Error | None:
    """The DuckDB error of reading a file, when the file is at fault; else None. A statement run
    after the failure (a clean-up in a ``finally``) fails in turn on the aborted transaction: the
    error that aborted it is the one looked at."""
    while isinstance(exc, duckdb.TransactionException) and exc.__context__ is not None:
        exc = exc.__context__
    if not isinstance(exc, duckdb.Error) or isinstance(exc, (*_NOT_THE_FILE, duckdb.TransactionException)):
        return None
    if isinstance(exc, duckdb.IOException) and "space" in str(exc).lower():
        return None  # the disk is full (the temp folder): not the file's fault
    return exc


PARQUET_UNREADABLE = "the file is not a readable Parquet file; export it again (or send CSV)"
PARQUET_CUT = (
    "the file is not a readable Parquet file: it is cut short or damaged (its end, which lists "
    "what it holds, is missing); export it again (or send CSV)"
)
PARQUET_DAMAGED = (
    "the file is damaged partway: the first part of it can be read, but a later block of its "
    "rows cannot; export it again (or send CSV)"
)
CSV_BROKEN = (
    "the file cannot be read as CSV to its end: a line in it breaks the layout of a CSV file "
    "(a stray carriage return inside a row, or binary data); " + fs.SAVE_AS
)


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


# ---------------------------------------------------------------------------
# one dataset


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
    try:
        pending: list[tuple[fs.InputEntry, fs.FileFacts]] = []
        for entry in entries:
            held_back = entry.rel in alone or entry.rel in unreadable
            facts = None if held_back else _new_batchable(ds, entry, ledger)
            if facts is not None:
                pending.append((entry, facts))
                continue
            _ingest_batch(con, ds, pending, ledger, ctx, now, report, tmp)
            pending = []
            _ingest_entry(con, ds, entry, ledger, ctx, now, report, tmp, unreadable=unreadable.get(entry.rel))
        _ingest_batch(con, ds, pending, ledger, ctx, now, report, tmp)
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


def _side() -> duckdb.DuckDBPyConnection:
    """This thread's in-memory connection for reading a Parquet file's footer: an error there (a
    file cut short) is only a reason to quarantine the file, never an aborted transaction."""
    side = getattr(_SIDE, "con", None)
    if side is None:
        side = _SIDE.con = duckdb.connect()
    return side


_SIDE = threading.local()


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
        fr = _whole_file_problem(con, ds, rel, entry.problem, now)
        size = None
    elif unreadable is not None:  # it broke partway through its reading in an earlier attempt
        fr = _whole_file_problem(con, ds, rel, unreadable, now)
        size = facts.size
    else:
        try:
            fr = _load_file(con, ds, entry.path, rel, facts, ctx, now, tmp)
        except duckdb.Error as exc:
            if _at_fault(exc) is None:
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


# ---------------------------------------------------------------------------
# new Parquet files, judged together


def _new_batchable(ds: Dataset, entry: fs.InputEntry, ledger) -> fs.FileFacts | None:
    """The facts of a Parquet or CSV file never loaded before, which may be judged with others; else None."""
    if BATCH_MAX_ROWS <= 0 or entry.problem is not None or entry.rel in ledger:
        return None
    suffix = Path(entry.rel).suffix.lower()
    if suffix not in (".parquet", ".csv") or suffix not in ds.extensions:
        return None
    try:
        facts = fs.inspect_file(entry.path, check_text=suffix == ".csv")
    except OSError:
        return None  # loaded on its own, which says what is wrong
    if suffix == ".csv" and facts.size > CSV_GROUP_MAX_BYTES:
        return None
    return facts if facts.size else None


def _csv_layout(ds: Dataset, facts: fs.FileFacts) -> tuple | None:
    """A CSV file's layout (delimiter, lines before its rows, header names) when it may be judged with
    others: UTF-8 text read as it is, with a header naming every required column once."""
    enc = fs.decide_encoding(facts)
    if enc.problem or enc.codec != "utf-8":
        return None
    text = facts.head.decode("utf-8", errors="replace").lstrip("\ufeff")
    if not text.strip():
        return None
    layout = fs.read_csv_layout(text, ds.required, _aliases(ds))
    if layout.problem or fs.duplicate_names(layout.names):
        return None
    return ("csv", layout.delimiter, int(layout.skip), tuple(layout.names))


def _footer_rows(paths: list[str]) -> dict[str, int]:
    """Each Parquet file's number of rows, as its footer says; a file whose footer cannot be read is
    left out (loaded on its own, which quarantines it)."""
    query = "SELECT file_name, num_rows FROM parquet_file_metadata($paths)"
    try:
        return dict(_side().execute(query, {"paths": paths}).fetchall())
    except duckdb.Error:
        rows: dict[str, int] = {}
        for path in paths:
            try:
                rows.update(_side().execute(query, {"paths": [path]}).fetchall())
            except duckdb.Error:
                continue
        return rows


def _parquet_layout(con, ds: Dataset, path: Path) -> tuple | None:
    """The file's columns as (spec name, file's name, type), when all is in order for a batch."""
    try:
        described = (
            _side().execute("DESCRIBE SELECT * FROM read_parquet($path)", {"path": str(path)}).fetchall()
        )
    except duckdb.Error:
        return None
    aliases = _aliases(ds)
    names = [(aliases.get(fs.clean_header(n), fs.clean_header(n)), n, t) for n, t, *_ in described]
    cleaned = [n for n, _, _ in names]
    if any(c not in cleaned for c in ds.required) or fs.duplicate_names(cleaned):
        return None
    return tuple(names)


def _ingest_batch(
    con, ds, pending: list[tuple[fs.InputEntry, fs.FileFacts]], ledger, ctx, now, report: DatasetReport, tmp
) -> None:
    """New Parquet and CSV files: consecutive ones of one format and layout judged and merged
    together (in groups of up to BATCH_MAX_ROWS rows); every other one, and every group that cannot
    be merged at once, file by file. Files are loaded, and their ledger and report entries written,
    in their order."""
    if len(pending) < 2:
        for entry, facts in pending:
            _ingest_entry(con, ds, entry, ledger, ctx, now, report, tmp, facts)
        return
    parquet = [str(e.path) for e, _ in pending if Path(e.rel).suffix.lower() == ".parquet"]
    rows = _footer_rows(parquet) if parquet else {}
    # Runs of consecutive files of one layout: the files stay in their order (a later file
    # supersedes an earlier one), so a file of another layout ends the run.
    groups: list[tuple[tuple | None, list[tuple[fs.InputEntry, fs.FileFacts]]]] = []
    held = 0
    for entry, facts in pending:
        if Path(entry.rel).suffix.lower() == ".csv":
            layout, size = _csv_layout(ds, facts), facts.size // CSV_BYTES_PER_ROW
        else:
            layout = _parquet_layout(con, ds, entry.path) if str(entry.path) in rows else None
            size = rows.get(str(entry.path), 0)
        if layout is None or not groups or groups[-1][0] != layout or held + size > BATCH_MAX_ROWS:
            groups.append((layout, []))
            held = 0
        groups[-1][1].append((entry, facts))
        held += size
    for layout, group in groups:
        load_group = _load_csv_group if layout and layout[0] == "csv" else _load_parquet_group
        if len(group) < 2 or not load_group(con, ds, group, layout, ctx, now, report):
            for entry, facts in group:
                _ingest_entry(con, ds, entry, ledger, ctx, now, report, tmp, facts)


def _load_parquet_group(con, ds: Dataset, group, layout: tuple, ctx, now, report: DatasetReport) -> bool:
    """Judge and merge Parquet files of one layout in one pass; False (nothing written) when they
    cannot be merged at once."""
    spec = {c.name for c in ds.columns}
    where = {n: (orig, t) for n, orig, t in layout if n in spec}
    quoted = lambda s: '"' + s.replace('"', '""') + '"'  # noqa: E731 - a column name of the file, quoted
    paths = _batch_files(con, group)
    source = (
        "SELECT file_row_number + 1 AS source_row, CAST(NULL AS VARCHAR) AS _source_reason, "
        + ", ".join(f"{quoted(orig)} AS {ident('r_' + n)}" for n, (orig, _) in where.items())
        + ", filename AS _source_file FROM read_parquet($paths, file_row_number = true, filename = true)"
    )
    for entry, _ in group:
        progress.reading(ds.name, entry.rel)
    try:
        _judge(con, ds, ctx, source, {n: t for n, (_, t) in where.items()}, {"paths": paths}, None, now)
    except duckdb.Error as exc:  # the transaction is aborted: loaded again, each file on its own
        if _at_fault(exc) is None:
            raise
        raise BatchUnreadable([entry.rel for entry, _ in group]) from exc
    return _merge_group(con, ds, group, now, report)


def _batch_files(con, group) -> list[str]:
    """The table _batch_files: each file of a group, the path read and its name in the folder."""
    paths = [str(entry.path) for entry, _ in group]
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _batch_files AS SELECT unnest($paths) AS path, unnest($rels) AS rel",
        {"paths": paths, "rels": [entry.rel for entry, _ in group]},
    ).fetchall()
    return paths


def _load_csv_group(con, ds: Dataset, group, layout: tuple, ctx, now, report: DatasetReport) -> bool:
    """Judge and merge UTF-8 CSV files of one header in one pass (``read_csv`` of the list, each
    row's file carried along); False (nothing written) when a line of them could not be read as a
    row (each file on its own then quarantines it with its number) or they cannot be merged at once."""
    _, delimiter, skip, names = layout
    spec = set(_read_columns(ds))
    where = {n: i for i, n in reversed(list(enumerate(names))) if n in spec}
    if PREFILLED_KEY in where:  # rows a person may have left blank are counted file by file
        return False
    paths = _batch_files(con, group)
    for entry, _ in group:
        progress.reading(ds.name, entry.rel)
    con.execute("DROP TABLE IF EXISTS _rej_errors").fetchall()
    con.execute("DROP TABLE IF EXISTS _rej_scans").fetchall()
    con.execute("SET preserve_insertion_order = true").fetchall()
    try:
        con.execute(
            f"CREATE OR REPLACE TEMP TABLE _csv_rows AS SELECT filename, "
            f"{', '.join(f'c{i}' for i in sorted(where.values()))} "
            f"FROM {_read_csv_sql(names, delimiter, skip)}",
            {"path": paths},
        ).fetchall()
    except duckdb.Error as exc:  # the transaction is aborted: loaded again, each file on its own
        if _at_fault(exc) is None:
            raise
        raise BatchUnreadable([entry.rel for entry, _ in group]) from exc
    unreadable = con.execute(
        "SELECT count(*) FROM _rej_errors WHERE trim(coalesce(csv_line, ''), "
        "' ' || chr(9) || chr(10) || chr(13)) <> ''"
    ).fetchall()[0][0]
    # each file's rows are numbered by their row ids, which follow one another within a file
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _csv_files AS SELECT filename, min(rowid) AS first, "
        "max(rowid) AS last, count(*) AS n FROM _csv_rows GROUP BY filename"
    ).fetchall()
    spans = con.execute("SELECT first, last, n FROM _csv_files ORDER BY first").fetchall()
    apart = all(last - first + 1 == n for first, last, n in spans) and all(
        spans[k][0] > spans[k - 1][1] for k in range(1, len(spans))
    )
    if unreadable or not apart:
        _drop_scratch(con)
        return False
    source = (
        f"SELECT r.rowid - f.first + 1 AS source_row, {_swallowed_sql(where, delimiter, len(names))} "
        "AS _source_reason, "
        + ", ".join(f"r.c{i} AS {ident('r_' + n)}" for n, i in where.items())
        + ", r.filename AS _source_file "
        "FROM _csv_rows AS r JOIN _csv_files AS f ON f.filename = r.filename"
    )
    _judge(con, ds, ctx, source, {n: "VARCHAR" for n in where}, {}, None, now)
    return _merge_group(con, ds, group, now, report)


def _read_csv_sql(names, delimiter: str, skip: int) -> str:
    """DuckDB's reading of the CSV file(s) $path: every cell text, the header's columns in order."""
    columns = "{" + ", ".join(f"'c{i}': 'VARCHAR'" for i in range(len(names))) + "}"
    return (
        f"read_csv($path, auto_detect = false, header = false, skip = {int(skip)}, "
        f"columns = {columns}, delim = {lit(delimiter)}, quote = '\"', escape = '\"', "
        f"strict_mode = true, store_rejects = true, rejects_table = '_rej_errors', "
        f"rejects_scan = '_rej_scans', max_line_size = 2000000, filename = true)"
    )


def _swallowed_sql(where: dict[str, int], delimiter: str, ncols: int) -> str:
    """The reason of a row one of whose cells runs over a line break with a whole row's worth of
    separators in it (a quote left open), or NULL."""
    cases = " ".join(
        f"WHEN contains(c{i}, chr(10)) AND length(c{i}) - length(replace(c{i}, {lit(delimiter)}, '')) "
        f">= {max(ncols - 1, 1)} THEN {lit(_swallow_reason(name))}"
        for name, i in where.items()
    )
    return f"CASE {cases} END" if cases else "CAST(NULL AS VARCHAR)"


def _merge_group(con, ds: Dataset, group, now, report: DatasetReport) -> bool:
    """The judged rows of a group of files (_judged) merged in one insert, with each file's ledger
    entry and report; False (nothing written) when they cannot be merged at once."""
    _mark_repeats(con, ds)
    con.execute(_incoming_view(con, ds)).fetchall()
    new = _merge_at_once(con, ds)
    if new is None:
        _drop_scratch(con)
        return False
    _quarantine_judged(con, ds, now)
    counts = {
        f: (int(r), int(q))
        for f, r, q in con.execute(
            "SELECT source_file, count(*), count(*) FILTER (WHERE reason IS NOT NULL) FROM _judged GROUP BY 1"
        ).fetchall()
    }
    con.execute(f"INSERT INTO {ident(ds.name)} BY NAME SELECT * FROM _incoming").fetchall()
    _drop_scratch(con)
    reports = []
    for entry, _ in group:
        read, quarantined = counts.get(entry.rel, (0, 0))
        reports.append(
            FileReport(
                entry.rel,
                rows_read=read,
                rows_quarantined=quarantined,
                rows_kept=read - quarantined,
                rows_new=int(new.get(entry.rel, 0)),
            )
        )
    # the files' ledger entries in one statement (one each cost more than judging a small file)
    run_script(
        con,
        sql("insert_ingested_files"),
        {
            "dataset": ds.name,
            "now": now,
            "source_file": [fr.source_file for fr in reports],
            "sha256": [facts.sha256 for _, facts in group],
            "size_bytes": [facts.size for _, facts in group],
            "file_stamp": [facts.stamp for _, facts in group],
            **{
                k: [getattr(fr, k) for fr in reports]
                for k in ("rows_read", "rows_kept", "rows_quarantined", "rows_new", "rows_superseded")
            },
        },
    )
    report.files.extend(reports)
    if report.summaries is not None:
        report.summaries = report.summaries and not any(fr.rows_new for fr in reports)
    for fr in reports:
        progress.rows(ds.name, fr.rows_read)
    return True


def _merge_at_once(con, ds: Dataset) -> dict[str, int] | None:
    """Each file's count of rows in _incoming (rows of several new files) when they can be inserted
    as they are: no natural key in two of its files, none in the table already; else None.
    One pass gives each file's key ranges: files whose ranges are apart on some key column share
    no key (a meter per file, a month per file); only when two files' ranges meet on every column
    are their keys compared."""
    keys = [ident(k) for k in ds.key]
    per_file = con.execute(
        "SELECT source_file, count(*), count(*) FILTER (WHERE "
        + " OR ".join(f"{k} IS NULL" for k in keys)
        + "), "
        + ", ".join(f"min({k}), max({k})" for k in keys)
        + " FROM _incoming GROUP BY source_file"
    ).fetchall()
    if not per_file:
        return {}
    nulls = sum(r[2] for r in per_file)
    boxes = [r[3:] for r in per_file]
    if nulls or _boxes_meet(boxes, len(keys)):
        shared = con.execute(
            f"SELECT count(*) FROM (SELECT 1 FROM _incoming GROUP BY {', '.join(keys)} "
            f"HAVING count(DISTINCT source_file) > 1)"
        ).fetchall()[0][0]
        if shared:
            return None
    bounds = []
    for i in range(len(keys)):
        lows = [b[2 * i] for b in boxes if b[2 * i] is not None]
        highs = [b[2 * i + 1] for b in boxes if b[2 * i + 1] is not None]
        bounds += [min(lows) if lows else None, max(highs) if highs else None]
    t_filter, params, overlap = _overlap(con, ds, tuple(bounds))
    # stored rows within the group's key ranges (a meter's year split between two groups): only a
    # key actually shared stops the insert at once (each file on its own would then cost a pass
    # over the stored rows per file)
    if (
        overlap
        and con.execute(
            f"SELECT EXISTS (SELECT 1 FROM {ident(ds.name)} AS t JOIN _incoming AS i "
            f"ON {_key_match(ds)} WHERE {t_filter})",
            params,
        ).fetchall()[0][0]
    ):
        return None
    return {r[0]: int(r[1]) for r in per_file}


def _boxes_meet(boxes: list[tuple], dims: int) -> bool:
    """Whether two of the files' key ranges (each a box: min and max of each key column, none NULL)
    meet on every column. Swept along the last column (a reading's time): only boxes whose times
    overlap are compared, so that a file per meter per day is not compared with every other."""
    last = dims - 1
    order = sorted(boxes, key=lambda b: b[2 * last])
    active: list[tuple] = []
    for box in order:
        active = [a for a in active if a[2 * last + 1] >= box[2 * last]]
        if any(
            all(a[2 * i] <= box[2 * i + 1] and box[2 * i] <= a[2 * i + 1] for i in range(dims))
            for a in active
        ):
            return True
        active.append(box)
    return False


def _drop_scratch(con) -> None:
    con.execute("DROP VIEW IF EXISTS _incoming").fetchall()
    for name in ("_judged", "_repeats", "_rejected_lines", "_batch_files", "_csv_rows", "_csv_files"):
        con.execute(f"DROP TABLE IF EXISTS {name}").fetchall()


def _whole_file_problem(
    con, ds, source_file: str, reason: str, now, fr: FileReport | None = None
) -> FileReport:
    con.execute(
        "INSERT INTO quarantine (dataset, source_file, row_number, reason, raw, quarantined_at) "
        "VALUES (?, ?, 0, ?, NULL, ?)",
        [ds.name, source_file, reason, now],
    ).fetchall()
    fr = fr or FileReport(source_file)
    fr.rows_read += 1
    fr.rows_quarantined += 1
    return fr


def _aliases(ds: Dataset) -> dict[str, str]:
    return {a: c.name for c in ds.columns for a in c.aliases}


def _read_columns(ds: Dataset) -> list[str]:
    """The columns read from a file: the spec's, and the hidden marker of a sheet Outfall prefilled when
    the dataset has answers (compile._unanswered_sql); any other column is left unread, never stored."""
    return [c.name for c in ds.columns] + ([PREFILLED_KEY] if ds.answers else [])


def _load_file(con, ds: Dataset, path: Path, rel: str, facts: fs.FileFacts, ctx, now, tmp) -> FileReport:
    suffix = Path(rel).suffix.lower()
    if suffix not in ds.extensions:
        allowed = " or ".join(ds.extensions)
        return _whole_file_problem(
            con,
            ds,
            rel,
            f"file type '{suffix or '(none)'}' is not accepted for {ds.name} (use {allowed})",
            now,
        )
    if facts.size == 0:
        return _whole_file_problem(con, ds, rel, "the file is empty", now)
    if suffix == ".csv":
        return _load_csv(con, ds, path, rel, facts, ctx, now, tmp)
    if suffix == ".parquet":
        return _load_parquet(con, ds, path, rel, ctx, now)
    if suffix == ".xlsx":
        return _load_xlsx(con, ds, path, rel, ctx, now)
    return _whole_file_problem(con, ds, rel, f"unsupported file type '{suffix}'", now)  # pragma: no cover


# ---------------------------------------------------------------------------
# sources


def _load_csv(con, ds, path, rel, facts, ctx, now, tmp) -> FileReport:
    enc = fs.decide_encoding(facts)
    if enc.problem:
        return _whole_file_problem(con, ds, rel, enc.problem, now)
    read_path = path
    if enc.codec != "utf-8":
        try:
            read_path = fs.transcode(path, enc.codec, tmp)
        except (UnicodeDecodeError, UnicodeError):
            return _whole_file_problem(
                con,
                ds,
                rel,
                "the file mixes text encodings (it is not all UTF-8, UTF-16 or Windows-1252); " + fs.SAVE_AS,
                now,
            )
        with open(read_path, "rb") as handle:
            head = handle.read(fs.HEAD)
    else:
        head = facts.head
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff")
    if not text.strip():
        return _whole_file_problem(con, ds, rel, "the file is empty", now)
    layout = fs.read_csv_layout(text, ds.required, _aliases(ds))
    if layout.problem:
        return _whole_file_problem(con, ds, rel, layout.problem, now)
    dupes = fs.duplicate_names(layout.names)
    if dupes:
        return _whole_file_problem(con, ds, rel, dupes, now)
    spec = set(_read_columns(ds))
    where = {n: i for i, n in reversed(list(enumerate(layout.names))) if n in spec}
    con.execute("DROP TABLE IF EXISTS _rej_errors").fetchall()
    con.execute("DROP TABLE IF EXISTS _rej_scans").fetchall()
    # The rows are read once, in the file's order, into a scratch table whose row ids number them:
    # numbering them in the judging query (row_number() OVER ()) held every row in one place and
    # judged them on one core, twice as slow.
    con.execute("SET preserve_insertion_order = true").fetchall()
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _csv_rows AS SELECT "
        f"{', '.join(f'c{i}' for i in sorted(where.values()))} "
        f"FROM {_read_csv_sql(layout.names, layout.delimiter, layout.skip)}",
        {"path": str(read_path)},
    ).fetchall()
    first, last, rows = con.execute("SELECT min(rowid), max(rowid), count(*) FROM _csv_rows").fetchall()[0]
    # (within a transaction a new table's row ids start high, one after another; should they ever
    # not, the rows are numbered the slow way)
    number = f"rowid - {int(first)} + 1" if rows and last - first + 1 == rows else "row_number() OVER ()"
    source = (
        f"SELECT {number} AS source_row, "
        f"{_swallowed_sql(where, layout.delimiter, len(layout.names))} AS _source_reason, "
        + ", ".join(f"c{i} AS {ident('r_' + n)}" for n, i in where.items())
        + " FROM _csv_rows"
    )
    present = {n: "VARCHAR" for n in where}
    fr = FileReport(rel)
    try:
        rejects = _csv_rejects(con, read_path, layout, layout.names)
        if not rejects:
            straight = _load_straight(con, ds, ctx, source, present, {}, rel, now, rows)
            if straight is not None:
                return straight
        _count_left_blank(fr, _judge(con, ds, ctx, source, present, {}, rel, now))
    finally:
        con.execute("DROP TABLE IF EXISTS _csv_rows").fetchall()
    if rejects:
        _renumber(con, rejects)
    return _finish_file(con, ds, rel, now, fr, extra_rejects=len(rejects))


def _swallow_reason(column: str) -> str:
    return (
        f"the cell in column '{column}' runs over a line break and holds a whole row's worth of separators: "
        "a quote was probably left open and swallowed the next line(s); close the quote and send the file "
        "again"
    )


def _csv_rejects(con, read_path: Path, layout: fs.CsvLayout, names: list[str]) -> list[tuple[int, str, str]]:
    """Lines DuckDB could not read as a row: (row_number, reason, raw), blank lines left out."""
    try:
        rows = con.execute(
            "SELECT line, min(line_byte_position), first(error_type ORDER BY column_idx), "
            "first(error_message ORDER BY column_idx), first(csv_line), first(column_idx ORDER BY "
            "column_idx) FROM _rej_errors GROUP BY line ORDER BY line"
        ).fetchall()
    except duckdb.Error:
        return []
    real = [r for r in rows if (r[4] or "").strip()]
    if not real:
        return []
    blanks = _blank_line_offsets(read_path, max(r[1] or 0 for r in real))
    out = []
    ncols = len(names)
    for line, pos, etype, message, csv_line, idx in real:
        before = sum(1 for b in blanks if b < (pos or 0))
        number = int(line) - layout.header_line - before
        text = (csv_line or "").strip("\r\n")
        found = re.search(r"Found: (\d+)", message or "")
        if etype in ("MISSING COLUMNS", "TOO MANY COLUMNS"):
            try:
                n = len(next(csv.reader(io.StringIO(text), delimiter=layout.delimiter)))
            except (csv.Error, StopIteration):
                n = int(found.group(1)) if found else text.count(layout.delimiter) + 1
            reason = (
                f"row has {n} fields but the header has {ncols}; check for an unquoted "
                f"{'comma' if layout.delimiter == ',' else 'separator'}"
            )
        elif etype == "UNQUOTED VALUE":
            column = names[idx] if idx is not None and 0 <= idx < ncols else "?"
            lines = text.count("\n")
            reason = (
                f"a quote in column '{column}' is not closed where the cell ends"
                + (f", so the {lines} line(s) after it were read into this row" if lines else "")
                + '; close the quote (or double a quote inside a cell: "") and send the file again'
            )
        elif etype == "LINE SIZE OVER MAXIMUM":
            reason = "the row is longer than 2,000,000 bytes; no cell can be that long: shorten it"
        elif etype and "UNICODE" in etype.upper() or etype and "ENCODING" in etype.upper():
            reason = "the row is not UTF-8 text; " + fs.SAVE_AS
        else:
            reason = f"the row cannot be read as CSV ({(etype or 'error').lower()})"
        out.append((number, reason, text[: cq.RAW_CELL_MAX]))
    return out


def _blank_line_offsets(path: Path, upto: int) -> list[int]:
    """Byte offsets of blank (or blanks-only) lines outside quotes, up to ``upto``
    (only needed to number rejected lines)."""
    offsets: list[int] = []
    pattern = re.compile(rb"(?<=\n)[ \t\r]*\n")
    quotes = 0
    base = 0
    carry = b""
    with open(path, "rb") as handle:
        while base <= upto:
            chunk = handle.read(fs.CHUNK)
            if not chunk:
                break
            data = carry + chunk
            start = base - len(carry)
            for m in pattern.finditer(data):
                if m.start() < len(carry):
                    continue
                if (quotes + data.count(b'"', len(carry), m.start())) % 2 == 0:
                    offsets.append(start + m.start())
            quotes += chunk.count(b'"')
            carry = data[-1:]
            base += len(chunk)
    return offsets


def _renumber(con, rejects: list[tuple[int, str, str]]) -> None:
    """Give the read rows their place among the rejected ones: the read row n is
    data row n + (how many rejected rows come before it)."""
    positions = sorted(r[0] for r in rejects)
    shifts = [(p - k,) for k, p in enumerate(positions, start=1)]
    con.execute("CREATE OR REPLACE TEMP TABLE _shift (shift_at BIGINT)").fetchall()
    con.executemany("INSERT INTO _shift VALUES (?)", shifts)
    con.execute(
        "UPDATE _judged SET source_row = source_row + s.n FROM (SELECT j.source_row AS r, count(*) AS n "
        "FROM _judged j JOIN _shift ON _shift.shift_at < j.source_row GROUP BY j.source_row) s WHERE "
        "_judged.source_row = s.r"
    ).fetchall()
    con.execute(
        "CREATE OR REPLACE TEMP TABLE _rejected_lines (row_number INTEGER, reason VARCHAR, raw VARCHAR)"
    ).fetchall()
    con.executemany("INSERT INTO _rejected_lines VALUES (?, ?, ?)", [list(r) for r in rejects])


def _load_parquet(con, ds, path, rel, ctx, now) -> FileReport:
    try:
        described = (
            _side().execute("DESCRIBE SELECT * FROM read_parquet($path)", {"path": str(path)}).fetchall()
        )
    except duckdb.Error as exc:
        cut = "magic bytes" in str(exc).lower() or "too small" in str(exc).lower()
        return _whole_file_problem(con, ds, rel, PARQUET_CUT if cut else PARQUET_UNREADABLE, now)
    aliases = _aliases(ds)
    names = [(aliases.get(fs.clean_header(n), fs.clean_header(n)), n, t) for n, t, *_ in described]
    cleaned = [n for n, _, _ in names]
    missing = [c for c in ds.required if c not in cleaned]
    if missing:
        return _whole_file_problem(con, ds, rel, fs.missing_header(ds.required, cleaned), now)
    dupes = fs.duplicate_names(cleaned)
    if dupes:
        return _whole_file_problem(con, ds, rel, dupes, now)
    spec = {c.name for c in ds.columns}
    where = {n: (orig, t) for n, orig, t in names if n in spec}
    quoted = lambda s: '"' + s.replace('"', '""') + '"'  # noqa: E731 - a column name of the file, quoted
    source = (
        "SELECT file_row_number + 1 AS source_row, CAST(NULL AS VARCHAR) AS _source_reason, "
        + ", ".join(f"{quoted(orig)} AS {ident('r_' + n)}" for n, (orig, _) in where.items())
        + " FROM read_parquet($path, file_row_number = true)"
    )
    fr = FileReport(rel)
    dictionary = _dictionary_columns(path)
    present = {
        n: parse.DICTIONARY_TEXT if t == "VARCHAR" and orig in dictionary else t
        for n, (orig, t) in where.items()
    }
    # a block of rows that cannot be read fails here, and the transaction with it (FileUnreadable)
    straight = _load_straight(
        con, ds, ctx, source, present, {"path": str(path)}, rel, now, _parquet_rows(path)
    )
    if straight is not None:
        return straight
    _judge(con, ds, ctx, source, present, {"path": str(path)}, rel, now)
    return _finish_file(con, ds, rel, now, fr)


def _dictionary_columns(path: Path) -> set[str]:
    """The columns of a Parquet file stored as a dictionary on every data page of every row group
    (the file's own page statistics say so; none when it does not keep them): their text is
    cleaned once per distinct value (parse.DICTIONARY_TEXT). Read on a connection of its own: a
    footer it cannot read is then only a reason to clean the usual way, never a failed transaction."""
    query = (
        "SELECT path_in_schema, bool_and(encoding_stats IS NOT NULL "
        "AND len(list_filter(encoding_stats, lambda e: e.page_type LIKE 'DATA_PAGE%')) > 0 "
        "AND len(list_filter(encoding_stats, lambda e: e.page_type LIKE 'DATA_PAGE%' "
        "AND e.encoding NOT IN ('PLAIN_DICTIONARY', 'RLE_DICTIONARY'))) = 0) "
        "FROM parquet_metadata($path) GROUP BY path_in_schema"
    )
    try:
        return {name for name, ok in _side().execute(query, {"path": str(path)}).fetchall() if ok}
    except duckdb.Error:
        return set()


def _parquet_rows(path: Path) -> int | None:
    """The number of rows a Parquet file's footer declares (None when it cannot be read)."""
    try:
        return int(
            _side()
            .execute("SELECT sum(num_rows) FROM parquet_file_metadata($path)", {"path": str(path)})
            .fetchall()[0][0]
        )
    except (duckdb.Error, TypeError):
        return None


def _load_straight(
    con, ds: Dataset, ctx, source: str, present: dict[str, str], params: dict, rel: str, now, rows: int | None
) -> FileReport | None:
    """A file of ``rows`` rows (a Parquet file's footer says how many; a CSV file's rows are those
    read into _csv_rows, when none of its lines was unreadable) judged straight into the table: the
    kept rows are inserted as they are judged, without the scratch copy _judge makes (writing that
    copy costs as much as the insert itself: half the time of a year of meter readings).

    Then the new rows are checked, as _finish_file would have: no two of them share a natural key,
    none shares one with a row already in the table, no local time among them occurs twice (the
    fall-back hour), and every row of the file is either kept or quarantined. When one of these
    fails (rare: a corrected re-send, repeated rows), the rows just written are deleted again and
    None is returned: the file is then loaded the careful way, which knows what to do with each."""
    if not rows:
        return None
    table = ident(ds.name)
    blank = cq.left_blank_sql(ds, source, present)
    left_blank = int(con.execute(blank, params).fetchall()[0][0]) if blank else 0
    query = cq.judge_sql(ds, ctx, source, present)
    flags = [
        f"coalesce({ident('_amb_' + c.name)}, false)"
        for c in ds.columns
        if c.kind == "timestamp" and c.name in present
    ]
    ambiguous = " OR ".join(flags) or "false"
    judged = f"SELECT *, CAST($source_file AS VARCHAR) AS source_file FROM ({query})"
    columns = ", ".join(ident(c) for c, _ in ds.table_columns())
    args = {**params, "source_file": rel, "now": now}
    new = "t.source_file = $source_file AND t.loaded_at = $now"
    if con.execute(
        f"SELECT EXISTS (SELECT 1 FROM {table} AS t WHERE {new})", {"source_file": rel, "now": now}
    ).fetchall()[0][0]:
        return (
            None  # rows of this file stored at this very time already: the new ones would not be told apart
        )
    con.execute("SET preserve_insertion_order = true").fetchall()  # rows in the file's order
    kept = int(
        con.execute(
            f"INSERT INTO {table} BY NAME SELECT {columns}, source_file, source_row, CAST($now AS "
            f"TIMESTAMPTZ) AS loaded_at, row_hash FROM ({judged}) WHERE reason IS NULL AND NOT ({ambiguous})",
            args,
        ).fetchall()[0][0]
    )
    quarantined = 0
    if kept < rows:
        # The rows not inserted (quarantined, or a local time that may occur twice) are judged again
        # alone, found by their numbers: a local time of the fall-back night is placed as _judge
        # places it, and inserted, instead of the whole file going the careful way (a year of local
        # times always has that night); the quarantined rows go to quarantine.
        con.execute(
            f"CREATE OR REPLACE TEMP TABLE _left_out AS SELECT r AS source_row "
            f"FROM range(1, $rows + 1) AS n(r) ANTI JOIN (SELECT source_row FROM {table} AS t WHERE {new}) "
            f"AS k ON k.source_row = n.r",
            {"rows": int(rows), "source_file": rel, "now": now},
        ).fetchall()
        # (the rows are picked from the source, before the judging: only they are judged again)
        left = cq.judge_sql(
            ds,
            ctx,
            f"SELECT * FROM ({source}) AS s WHERE s.source_row IN (SELECT source_row FROM _left_out)",
            present,
        )
        con.execute(
            "CREATE OR REPLACE TEMP TABLE _judged AS SELECT *, CAST($source_file AS VARCHAR) "
            f"AS source_file, CAST($now AS TIMESTAMPTZ) AS loaded_at FROM ({left})",
            args,
        ).fetchall()
        _fall_back(con, ds)
        kept += int(
            con.execute(
                f"INSERT INTO {table} BY NAME SELECT {columns}, source_file, source_row, loaded_at, row_hash "
                "FROM _judged WHERE reason IS NULL ORDER BY source_row"
            ).fetchall()[0][0]
        )
        quarantined = int(
            con.execute(
                "INSERT INTO quarantine (dataset, source_file, row_number, reason, raw, quarantined_at) "
                "SELECT $dataset, source_file, source_row, reason, raw, $now FROM _judged "
                "WHERE reason IS NOT NULL ORDER BY source_row",
                {"dataset": ds.name, "now": now},
            ).fetchall()[0][0]
        )
        con.execute("DROP TABLE IF EXISTS _judged").fetchall()
        con.execute("DROP TABLE IF EXISTS _left_out").fetchall()
    ok, summarised = (
        (True, False)
        if kept == 0
        else _straight_rows_fit(con, ds, new, {"source_file": rel, "now": now}, kept)
    )
    ok = ok and kept + quarantined + left_blank == rows
    if not ok:
        if ds.hourly_summaries:
            flow_hours.drop_staged(con)
        con.execute(f"DELETE FROM {table} AS t WHERE {new}", {"source_file": rel, "now": now}).fetchall()
        if quarantined:
            con.execute(
                "DELETE FROM quarantine WHERE dataset = $dataset AND source_file = $source_file "
                "AND quarantined_at = $now",
                {"dataset": ds.name, "source_file": rel, "now": now},
            ).fetchall()
        return None
    return FileReport(
        rel,
        rows_read=rows - left_blank,
        rows_kept=kept,
        rows_quarantined=quarantined,
        rows_new=kept,
        rows_left_blank=left_blank,
        prefilled=blank is not None,
        straight=True,
        hours_summarised=summarised,
    )


def _straight_rows_fit(con, ds: Dataset, new: str, params: dict, kept: int) -> tuple[bool, bool]:
    """Whether the ``kept`` rows just inserted (``new``: a filter on the table as t) can stay as they
    are: no two share a natural key, none has a key column empty, none shares its key with an older
    row; and whether an hour of them is summarised already. A dataset with hourly summaries learns
    the first two from its new rows' summaries, made (and staged) here; they are kept once the file
    is (_record_file), unless an hour of them was summarised already."""
    table = ident(ds.name)
    keys = [ident(k) for k in ds.key]
    summarised = False
    if ds.hourly_summaries:
        repeated, empty, summarised, *bounds = flow_hours.stage_new_rows(
            con, params["source_file"], params["now"], kept
        )
    else:
        # Keys are told apart by their hash, one number (half the time of grouping by the key's
        # columns): two keys with one hash would read as a repeat, and the careful way would sort
        # them out.
        repeated, empty, *bounds = con.execute(
            f"SELECT count(*) - count(DISTINCT hash({', '.join(keys)})), count(*) FILTER (WHERE "
            + " OR ".join(f"{k} IS NULL" for k in keys)
            + "), "
            + ", ".join(f"min({k}), max({k})" for k in keys)
            + f" FROM {table} AS t WHERE {new}",
            params,
        ).fetchall()[0]
    if repeated or empty:
        return False, summarised
    t_filter, range_params, overlap = _overlap(con, ds, tuple(bounds), exclude=(new, params))
    if not overlap:
        return True, summarised
    shared = con.execute(
        f"SELECT count(*) FROM {table} AS t JOIN (SELECT {', '.join(keys)} FROM {table} AS t WHERE {new}) "
        f"AS i ON {_key_match(ds)} WHERE {t_filter} AND NOT ({new})",
        {**params, **range_params},
    ).fetchall()[0][0]
    return not shared, summarised


def _load_xlsx(con, ds, path, rel, ctx, now) -> FileReport:
    problem = xlsx.workbook_problem(path)
    if problem:
        return _whole_file_problem(con, ds, rel, problem, now)
    try:
        sheets = xlsx.read_workbook(
            path, _read_columns(ds), ds.required, _aliases(ds), ds.name, frozenset(all_datasets()) - {ds.name}
        )
    except Exception as exc:  # noqa: BLE001 - any reader failure means "not a workbook we can read"
        return _whole_file_problem(
            con,
            ds,
            rel,
            f"the file is not a readable .xlsx workbook "
            f"({type(exc).__name__}); open it in Excel and save it again",
            now,
        )
    fr = FileReport(rel)
    if not sheets:
        return _whole_file_problem(con, ds, rel, "the workbook is empty", now)
    if all(s.skipped for s in sheets) and any(s.skipped == xlsx.OTHER_FOLDER for s in sheets):
        # saved into the wrong folder: nothing of it is this folder's, and saying nothing would hide that
        folders = ", ".join(sorted({clean_header(s.name) for s in sheets if s.skipped == xlsx.OTHER_FOLDER}))
        return _whole_file_problem(
            con,
            ds,
            rel,
            f"the workbook has no sheet for {ds.name}: its sheets are for the "
            f"folders {folders}; save it into those folders",
            now,
        )
    fr.notes = _skipped_sheets(rel, sheets)
    several = len(sheets) > 1
    for sheet in sheets:
        name = f"{rel} [{sheet.name}]" if several else rel
        if sheet.skipped:
            continue
        if sheet.problem:
            _whole_file_problem(con, ds, name, sheet.problem, now, fr)
            continue
        table = xlsx.sheet_arrow(sheet)
        con.register("_xlsx_source", table)
        try:
            present = {c: "VARCHAR" for c in sheet.columns}
            _count_left_blank(fr, _judge(con, ds, ctx, "SELECT * FROM _xlsx_source", present, {}, name, now))
        finally:
            con.unregister("_xlsx_source")
        _finish_file(con, ds, name, now, fr)
    return fr


def _skipped_sheets(rel: str, sheets) -> list[str]:
    """The run log's lines about the sheets of a workbook that are not this folder's."""
    elsewhere = [f"'{s.name}'" for s in sheets if s.skipped == xlsx.OTHER_FOLDER]
    notes = [f"'{s.name}'" for s in sheets if s.skipped == xlsx.NOTES]
    lines = []
    if elsewhere:
        lines.append(
            f"{rel}: sheet{'s' if len(elsewhere) > 1 else ''} {', '.join(elsewhere)} not read here: "
            f"{'each' if len(elsewhere) > 1 else 'it'} belongs to the input folder of its name"
        )
    if notes:
        lines.append(f"{rel}: sheet {', '.join(notes)} not read: it holds notes for people, not rows")
    return lines


# ---------------------------------------------------------------------------
# judging, quarantine and merge


def _count_left_blank(fr: FileReport, left_blank: int | None) -> None:
    if left_blank is not None:
        fr.rows_left_blank += left_blank
        fr.prefilled = True


def _judge(
    con, ds, ctx, source: str, present: dict[str, str], params: dict, source_file: str | None, now
) -> int | None:
    """The judged rows of ``source`` in _judged; ``source_file`` None: several files, each row's
    from the source's ``_source_file`` (a path of _batch_files). Returns the rows Outfall prefilled that
    were left blank, which are not judged; None when the source is no sheet Outfall prefilled (a group
    of files never is: compile.left_blank_sql)."""
    batch = source_file is None
    blank = cq.left_blank_sql(ds, source, present) if not batch else None
    left_blank = int(con.execute(blank, params).fetchall()[0][0]) if blank else None
    query = cq.judge_sql(ds, ctx, source, present, carry=("_source_file",) if batch else ())
    con.execute("DROP TABLE IF EXISTS _rejected_lines").fetchall()
    con.execute("SET preserve_insertion_order = true").fetchall()  # row numbers follow the file's order
    if batch:
        select = (
            "SELECT q.* EXCLUDE (_source_file), f.rel AS source_file, CAST($now AS TIMESTAMPTZ) AS loaded_at "
            f"FROM ({query}) AS q JOIN _batch_files AS f ON f.path = q._source_file"
        )
    else:
        select = (
            f"SELECT *, CAST($source_file AS VARCHAR) AS source_file, "
            f"CAST($now AS TIMESTAMPTZ) AS loaded_at FROM ({query})"
        )
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE _judged AS {select}",
        {
            k: v
            for k, v in {**params, "tz": ctx.timezone, "source_file": source_file, "now": now}.items()
            if f"${k}" in select
        },
    ).fetchall()
    _fall_back(con, ds)
    return left_blank


def _fall_back(con, ds: Dataset) -> None:
    """A local time that occurs twice (the fall-back hour) is daylight time the
    first time it appears within its group (a meter) and standard time after."""
    renamed = dict(ds.renames)
    have = set(table_columns(con, "_judged"))
    for col in ds.columns:
        if col.kind != "timestamp" or "_amb_" + col.name not in have:
            continue
        flag = ident("_amb_" + col.name)
        target = ident(renamed.get(col.name, col.name))
        if not con.execute(f"SELECT count(*) FROM _judged WHERE {flag}").fetchall()[0][0]:
            continue
        groups = [ident(renamed.get(g, g)) for g in ds.timestamp_groups]
        part = ", ".join(["source_file", *groups, target])
        # a row is its file's and its number's (rows of several files are judged together)
        con.execute(
            f"UPDATE _judged SET {target} = {target} + INTERVAL 1 HOUR "
            f"FROM (SELECT source_file, source_row FROM ("
            f"SELECT source_file, source_row, row_number() OVER (PARTITION BY {part} ORDER BY source_row) "
            f"AS occurrence FROM _judged WHERE {flag}) WHERE occurrence > 1) AS later "
            f"WHERE _judged.source_file = later.source_file "
            f"AND _judged.source_row = later.source_row"
        ).fetchall()
        con.execute(f"UPDATE _judged SET row_hash = {cq.hash_sql(ds)} WHERE {flag}").fetchall()


def key_words(ds: Dataset) -> str:
    """A dataset's natural key as its files name the columns, in words: 'user_id, constituent and
    timestamp' (a table column renamed from the file's is named as the file names it)."""
    file_name = {table: column for column, table in ds.renames}
    names = [file_name.get(k, k) for k in ds.key]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _mark_repeats(con, ds: Dataset) -> None:
    """Rows of one file with the same natural key: a repeat of the first is dropped (_repeats), a
    different row is quarantined as a conflict naming the first."""
    key = ", ".join(ident(k) for k in ds.key)
    keys_text = key_words(ds)
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE _repeats AS "
        f"WITH k AS (SELECT hash(source_file, {key}) AS h FROM _judged WHERE reason IS NULL GROUP BY 1 "
        f"HAVING count(*) > 1), "
        f"c AS (SELECT source_file, source_row, row_hash, first_value(source_row) OVER w AS first_row, "
        f"first_value(row_hash) OVER w AS first_hash FROM _judged "
        f"WHERE reason IS NULL AND hash(source_file, {key}) IN (SELECT h FROM k) "
        f"WINDOW w AS (PARTITION BY source_file, {key} ORDER BY source_row)) "
        f"SELECT source_file, source_row, first_row, row_hash = first_hash AS repeat FROM c "
        f"WHERE source_row <> first_row"
    ).fetchall()
    con.execute(
        "UPDATE _judged SET reason = 'conflicts with row ' || CAST(r.first_row AS VARCHAR) || ' of this "
        "file: the same "
        + keys_text.replace("'", "''")
        + " with different values; send one corrected row' FROM "
        "_repeats r WHERE _judged.source_file = r.source_file AND _judged.source_row = r.source_row AND NOT "
        "r.repeat"
    ).fetchall()


def _quarantine_judged(con, ds: Dataset, now, source_file: str | None = None) -> None:
    """The rejected rows of _judged (and a CSV's unreadable lines, of ``source_file``) into quarantine."""
    has_lines = source_file is not None and bool(
        con.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE table_name = '_rejected_lines' AND temporary"
        ).fetchall()[0][0]
    )
    lines = (
        "UNION ALL SELECT $source_file, row_number, reason, raw FROM _rejected_lines " if has_lines else ""
    )
    con.execute(
        "INSERT INTO quarantine (dataset, source_file, row_number, reason, raw, quarantined_at) "
        "SELECT $dataset, source_file, row_number, reason, raw, $now FROM ("
        "SELECT source_file, source_row AS row_number, reason, raw FROM _judged WHERE reason IS NOT NULL "
        + lines
        + ") ORDER BY source_file, row_number",
        {"dataset": ds.name, "now": now, **({"source_file": source_file} if has_lines else {})},
    ).fetchall()


def _finish_file(
    con, ds: Dataset, source_file: str, now, fr: FileReport, extra_rejects: int = 0
) -> FileReport:
    """Same-key conflicts within the file, quarantine, merge, counts."""
    _mark_repeats(con, ds)
    _quarantine_judged(con, ds, now, source_file)
    read, quarantined = con.execute(
        "SELECT count(*), count(*) FILTER (WHERE reason IS NOT NULL) FROM _judged"
    ).fetchall()[0]
    read += extra_rejects
    quarantined += extra_rejects
    fr.rows_read += int(read)
    fr.rows_quarantined += int(quarantined)
    fr.rows_kept += int(read - quarantined)
    new, superseded = _merge(con, ds, source_file, now)
    fr.rows_new += new
    fr.rows_superseded += superseded
    con.execute("DROP TABLE IF EXISTS _judged").fetchall()
    con.execute("DROP TABLE IF EXISTS _repeats").fetchall()
    con.execute("DROP TABLE IF EXISTS _rejected_lines").fetchall()
    return fr


def _key_match(ds: Dataset) -> str:
    return " AND ".join(f"t.{ident(k)} IS NOT DISTINCT FROM i.{ident(k)}" for k in ds.key)


def _incoming_view(con, ds: Dataset) -> str:
    """The view _incoming: the kept rows of _judged, less the repeats within a file. Without
    repeats (nearly always) it is a plain filter: the anti-join reads every row even against an
    empty _repeats, and the view is read three times."""
    select = ", ".join(ident(c) for c, _ in ds.table_columns())
    repeats = con.execute("SELECT EXISTS (SELECT 1 FROM _repeats)").fetchall()[0][0]
    less = (
        (
            " AND NOT EXISTS (SELECT 1 FROM _repeats AS r "
            "WHERE r.source_file = j.source_file AND r.source_row = j.source_row)"
        )
        if repeats
        else ""
    )
    return (
        f"CREATE OR REPLACE TEMP VIEW _incoming AS SELECT {select}, source_file, source_row, loaded_at, "
        f"row_hash FROM _judged AS j WHERE reason IS NULL{less}"
    )


def _overlap(
    con, ds: Dataset, bounds: tuple | None = None, exclude: tuple[str, dict] | None = None
) -> tuple[str, dict, int]:
    """Existing rows that may share a key with _incoming: only those within the incoming keys'
    ranges (``bounds``: each key column's min and max, else read from _incoming), less the rows
    ``exclude`` selects (a filter on the table as t, and its parameters). Returns (the filter on
    the table as t, its parameters, how many rows it finds)."""
    if bounds is None:
        bounds = con.execute(
            "SELECT " + ", ".join(f"min({ident(k)}), max({ident(k)})" for k in ds.key) + " FROM _incoming"
        ).fetchall()[0]
    where, params = [], {}
    for i, k in enumerate(ds.key):
        lo, hi = bounds[2 * i], bounds[2 * i + 1]
        if lo is None:
            continue
        where.append(f"(t.{ident(k)} BETWEEN $lo{i} AND $hi{i} OR t.{ident(k)} IS NULL)")
        params[f"lo{i}"], params[f"hi{i}"] = lo, hi
    t_filter = " AND ".join(where) or "true"
    less, less_params = (f" AND NOT ({exclude[0]})", exclude[1]) if exclude else ("", {})
    overlap = con.execute(
        f"SELECT count(*) FROM {ident(ds.name)} AS t WHERE {t_filter}{less}", {**params, **less_params}
    ).fetchall()[0][0]
    return t_filter, params, int(overlap)


def _merge(con, ds: Dataset, source_file: str, now) -> tuple[int, int]:
    """Merge the kept rows of _judged; returns (rows new or changed, rows superseded)."""
    table = ident(ds.name)
    con.execute(_incoming_view(con, ds)).fetchall()
    try:
        # the count and each key column's bounds in one reading of _incoming
        incoming, *bounds = con.execute(
            "SELECT count(*), "
            + ", ".join(f"min({ident(k)}), max({ident(k)})" for k in ds.key)
            + " FROM _incoming"
        ).fetchall()[0]
        if not incoming:
            return 0, 0
        t_filter, params, overlap = _overlap(con, ds, tuple(bounds))
        if not overlap:
            con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _incoming").fetchall()
            return int(incoming), 0
        key_match = _key_match(ds)
        superseded = con.execute(
            f"SELECT count(*) FROM {table} AS t JOIN _incoming AS i ON {key_match} "
            f"WHERE {t_filter} AND t.row_hash <> i.row_hash",
            params,
        ).fetchall()[0][0]
        before = con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]
        run_script(
            con,
            sql("merge_into_dataset").format(table=ds.name, key_match=key_match, t_filter=t_filter),
            {"source_file": source_file, "now": now, **params},
        )
        after = con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]
        return int(after - before + superseded), int(superseded)
    finally:
        con.execute("DROP VIEW IF EXISTS _incoming").fetchall()


__all__ = [
    "DatasetReport",
    "FileReport",
    "FileUnreadable",
    "SchemaMismatch",
    "ingest_dataset",
    "load_dataset",
    "check_table",
]
