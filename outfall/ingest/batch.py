"""New Parquet files of one layout, and new UTF-8 CSV files of one header, judged and merged together
(outfall/ingest/engine.py): up to ``BATCH_MAX_ROWS`` rows in one statement, each row's file carried
along; merged in one insert only when no two files share a natural key and none is in the table
already, else each file loaded on its own, in order."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import duckdb

from outfall import progress
from outfall.ingest import files as fs, single
from outfall.ingest.datasets import PREFILLED_KEY, Dataset
from outfall.ingest.judging import (
    DatasetReport,
    FileReport,
    at_fault,
    column_aliases,
    drop_scratch,
    incoming_view,
    judge,
    key_match_sql,
    mark_repeats,
    quarantine_judged,
    read_columns,
    side,
    stored_overlap,
)
from outfall.ingest.parse import ident
from outfall.warehouse import run_script, sql

BATCH_MAX_ROWS = 2_000_000  # rows of new Parquet or CSV files judged in one statement (0: one file at a time)


CSV_BYTES_PER_ROW = 40  # a meter reading's line: what a CSV file's size is reckoned in rows at


# A CSV file larger than this is loaded on its own: straight into its table (load_straight), without
# the scratch copy a group is judged into, which costs more than the file's own reading saves.
CSV_GROUP_MAX_BYTES = 8 << 20


class BatchUnreadable(Exception):
    """A group of Parquet files judged together broke partway: ``load_dataset`` loads the dataset
    again with each of them read on its own, so that the file at fault is found."""

    def __init__(self, rels: list[str]):
        super().__init__(", ".join(rels))
        self.rels = rels


def new_batchable(ds: Dataset, entry: fs.InputEntry, ledger) -> fs.FileFacts | None:
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
    layout = fs.read_csv_layout(text, ds.required, column_aliases(ds))
    if layout.problem or fs.duplicate_names(layout.names):
        return None
    return ("csv", layout.delimiter, int(layout.skip), tuple(layout.names))


def _footer_rows(paths: list[str]) -> dict[str, int]:
    """Each Parquet file's number of rows, as its footer says; a file whose footer cannot be read is
    left out (loaded on its own, which quarantines it)."""
    query = "SELECT file_name, num_rows FROM parquet_file_metadata($paths)"
    try:
        return dict(side().execute(query, {"paths": paths}).fetchall())
    except duckdb.Error:
        rows: dict[str, int] = {}
        for path in paths:
            try:
                rows.update(side().execute(query, {"paths": [path]}).fetchall())
            except duckdb.Error:
                continue
        return rows


def _parquet_layout(con, ds: Dataset, path: Path) -> tuple | None:
    """The file's columns as (spec name, file's name, type), when all is in order for a batch."""
    try:
        described = (
            side().execute("DESCRIBE SELECT * FROM read_parquet($path)", {"path": str(path)}).fetchall()
        )
    except duckdb.Error:
        return None
    aliases = column_aliases(ds)
    names = [(aliases.get(fs.clean_header(n), fs.clean_header(n)), n, t) for n, t, *_ in described]
    cleaned = [n for n, _, _ in names]
    if any(c not in cleaned for c in ds.required) or fs.duplicate_names(cleaned):
        return None
    return tuple(names)


def ingest_batch(
    con,
    ds,
    pending: list[tuple[fs.InputEntry, fs.FileFacts]],
    ctx,
    now,
    report: DatasetReport,
    load_one: Callable[[fs.InputEntry, fs.FileFacts], None],
) -> None:
    """New Parquet and CSV files: consecutive ones of one format and layout judged and merged
    together (in groups of up to BATCH_MAX_ROWS rows); every other one, and every group that cannot
    be merged at once, file by file. Files are loaded, and their ledger and report entries written,
    in their order (``load_one``: a file loaded on its own, as the engine loads it)."""
    if len(pending) < 2:
        for entry, facts in pending:
            load_one(entry, facts)
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
                load_one(entry, facts)


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
        judge(con, ds, ctx, source, {n: t for n, (_, t) in where.items()}, {"paths": paths}, None, now)
    except duckdb.Error as exc:  # the transaction is aborted: loaded again, each file on its own
        if at_fault(exc) is None:
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
    spec = set(read_columns(ds))
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
            f"FROM {single.read_csv_sql(names, delimiter, skip)}",
            {"path": paths},
        ).fetchall()
    except duckdb.Error as exc:  # the transaction is aborted: loaded again, each file on its own
        if at_fault(exc) is None:
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
        drop_scratch(con)
        return False
    source = (
        f"SELECT r.rowid - f.first + 1 AS source_row, {single.swallowed_sql(where, delimiter, len(names))} "
        "AS _source_reason, "
        + ", ".join(f"r.c{i} AS {ident('r_' + n)}" for n, i in where.items())
        + ", r.filename AS _source_file "
        "FROM _csv_rows AS r JOIN _csv_files AS f ON f.filename = r.filename"
    )
    judge(con, ds, ctx, source, {n: "VARCHAR" for n in where}, {}, None, now)
    return _merge_group(con, ds, group, now, report)


def _merge_group(con, ds: Dataset, group, now, report: DatasetReport) -> bool:
    """The judged rows of a group of files (_judged) merged in one insert, with each file's ledger
    entry and report; False (nothing written) when they cannot be merged at once."""
    mark_repeats(con, ds)
    con.execute(incoming_view(con, ds)).fetchall()
    new = _merge_at_once(con, ds)
    if new is None:
        drop_scratch(con)
        return False
    quarantine_judged(con, ds, now)
    counts = {
        f: (int(r), int(q))
        for f, r, q in con.execute(
            "SELECT source_file, count(*), count(*) FILTER (WHERE reason IS NOT NULL) FROM _judged GROUP BY 1"
        ).fetchall()
    }
    con.execute(f"INSERT INTO {ident(ds.name)} BY NAME SELECT * FROM _incoming").fetchall()
    drop_scratch(con)
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
    t_filter, params, overlap = stored_overlap(con, ds, tuple(bounds))
    # stored rows within the group's key ranges (a meter's year split between two groups): only a
    # key actually shared stops the insert at once (each file on its own would then cost a pass
    # over the stored rows per file)
    if (
        overlap
        and con.execute(
            f"SELECT EXISTS (SELECT 1 FROM {ident(ds.name)} AS t JOIN _incoming AS i "
            f"ON {key_match_sql(ds)} WHERE {t_filter})",
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
