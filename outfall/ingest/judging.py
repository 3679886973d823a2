"""What loading a file of any kind shares (outfall/ingest/engine.py): the reports of a file and of
a dataset, a whole file quarantined as one row, the judging of rows into the scratch table
``_judged`` (one query compiled from the spec, ``outfall.ingest.compile``), the fall-back hour,
repeats within a file, quarantine, and the merge of the kept rows under the natural key."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import duckdb

from outfall.ingest import compile as cq
from outfall.ingest.datasets import PREFILLED_KEY, Dataset
from outfall.ingest.parse import ident
from outfall.warehouse import run_script, sql, table_columns


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
    straight: bool = False  # judged straight into the table (load_straight)
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


# DuckDB's errors that are not the file's: the machine's (memory, disk), an interruption, Outfall's own.
_NOT_THE_FILE = (
    duckdb.OutOfMemoryException,
    duckdb.InterruptException,
    duckdb.CatalogException,
    duckdb.InternalException,
    duckdb.FatalException,
    duckdb.ConnectionException,
)


def at_fault(exc: BaseException) -> duckdb.Error | None:
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


def side() -> duckdb.DuckDBPyConnection:
    """This thread's in-memory connection for reading a Parquet file's footer: an error there (a
    file cut short) is only a reason to quarantine the file, never an aborted transaction."""
    side = getattr(_SIDE, "con", None)
    if side is None:
        side = _SIDE.con = duckdb.connect()
    return side


_SIDE = threading.local()


def whole_file_problem(
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


def column_aliases(ds: Dataset) -> dict[str, str]:
    return {a: c.name for c in ds.columns for a in c.aliases}


def read_columns(ds: Dataset) -> list[str]:
    """The columns read from a file: the spec's, and the hidden marker of a sheet Outfall prefilled when
    the dataset has answers (compile._unanswered_sql); any other column is left unread, never stored."""
    return [c.name for c in ds.columns] + ([PREFILLED_KEY] if ds.answers else [])


def drop_scratch(con) -> None:
    con.execute("DROP VIEW IF EXISTS _incoming").fetchall()
    for name in ("_judged", "_repeats", "_rejected_lines", "_batch_files", "_csv_rows", "_csv_files"):
        con.execute(f"DROP TABLE IF EXISTS {name}").fetchall()


def count_left_blank(fr: FileReport, left_blank: int | None) -> None:
    if left_blank is not None:
        fr.rows_left_blank += left_blank
        fr.prefilled = True


def judge(
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
    fall_back(con, ds)
    return left_blank


def fall_back(con, ds: Dataset) -> None:
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


def mark_repeats(con, ds: Dataset) -> None:
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


def quarantine_judged(con, ds: Dataset, now, source_file: str | None = None) -> None:
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


def finish_file(
    con, ds: Dataset, source_file: str, now, fr: FileReport, extra_rejects: int = 0
) -> FileReport:
    """Same-key conflicts within the file, quarantine, merge, counts."""
    mark_repeats(con, ds)
    quarantine_judged(con, ds, now, source_file)
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


def key_match_sql(ds: Dataset) -> str:
    return " AND ".join(f"t.{ident(k)} IS NOT DISTINCT FROM i.{ident(k)}" for k in ds.key)


def incoming_view(con, ds: Dataset) -> str:
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


def stored_overlap(
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
    con.execute(incoming_view(con, ds)).fetchall()
    try:
        # the count and each key column's bounds in one reading of _incoming
        incoming, *bounds = con.execute(
            "SELECT count(*), "
            + ", ".join(f"min({ident(k)}), max({ident(k)})" for k in ds.key)
            + " FROM _incoming"
        ).fetchall()[0]
        if not incoming:
            return 0, 0
        t_filter, params, overlap = stored_overlap(con, ds, tuple(bounds))
        if not overlap:
            con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _incoming").fetchall()
            return int(incoming), 0
        key_match = key_match_sql(ds)
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
