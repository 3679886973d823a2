"""A CSV or Parquet file loaded on its own (outfall/ingest/engine.py): its layout read and checked,
its rows read by DuckDB (``read_csv`` with every cell text, ``read_parquet``), tried straight into the
table (``straight.py``) and else judged the careful way; a CSV file's unreadable lines quarantined with
their numbers. What is wrong with a file that cannot be read, in plain words."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import duckdb

from outfall.ingest import compile as cq, files as fs, parse, straight
from outfall.ingest.datasets import Dataset
from outfall.ingest.judging import (
    FileReport,
    column_aliases,
    count_left_blank,
    finish_file,
    judge,
    read_columns,
    side,
    whole_file_problem,
)
from outfall.ingest.parse import ident, lit
from outfall.ingest.workbook import load_xlsx

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


def load_file(con, ds: Dataset, path: Path, rel: str, facts: fs.FileFacts, ctx, now, tmp) -> FileReport:
    suffix = Path(rel).suffix.lower()
    if suffix not in ds.extensions:
        allowed = " or ".join(ds.extensions)
        return whole_file_problem(
            con,
            ds,
            rel,
            f"file type '{suffix or '(none)'}' is not accepted for {ds.name} (use {allowed})",
            now,
        )
    if facts.size == 0:
        return whole_file_problem(con, ds, rel, "the file is empty", now)
    if suffix == ".csv":
        return _load_csv(con, ds, path, rel, facts, ctx, now, tmp)
    if suffix == ".parquet":
        return _load_parquet(con, ds, path, rel, ctx, now)
    if suffix == ".xlsx":
        return load_xlsx(con, ds, path, rel, ctx, now)
    return whole_file_problem(con, ds, rel, f"unsupported file type '{suffix}'", now)  # pragma: no cover


def _load_csv(con, ds, path, rel, facts, ctx, now, tmp) -> FileReport:
    readable = _readable_csv(path, facts, tmp)
    if isinstance(readable, str):
        return whole_file_problem(con, ds, rel, readable, now)
    read_path, text = readable
    if not text.strip():
        return whole_file_problem(con, ds, rel, "the file is empty", now)
    layout = fs.read_csv_layout(text, ds.required, column_aliases(ds))
    if layout.problem:
        return whole_file_problem(con, ds, rel, layout.problem, now)
    dupes = fs.duplicate_names(layout.names)
    if dupes:
        return whole_file_problem(con, ds, rel, dupes, now)
    spec = set(read_columns(ds))
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
        f"FROM {read_csv_sql(layout.names, layout.delimiter, layout.skip)}",
        {"path": str(read_path)},
    ).fetchall()
    first, last, rows = con.execute("SELECT min(rowid), max(rowid), count(*) FROM _csv_rows").fetchall()[0]
    # (within a transaction a new table's row ids start high, one after another; should they ever
    # not, the rows are numbered the slow way)
    number = f"rowid - {int(first)} + 1" if rows and last - first + 1 == rows else "row_number() OVER ()"
    source = (
        f"SELECT {number} AS source_row, "
        f"{swallowed_sql(where, layout.delimiter, len(layout.names))} AS _source_reason, "
        + ", ".join(f"c{i} AS {ident('r_' + n)}" for n, i in where.items())
        + " FROM _csv_rows"
    )
    present = {n: "VARCHAR" for n in where}
    fr = FileReport(rel)
    try:
        rejects = _csv_rejects(con, read_path, layout, layout.names)
        if not rejects:
            loaded = straight.load_straight(con, ds, ctx, source, present, {}, rel, now, rows)
            if loaded is not None:
                return loaded
        count_left_blank(fr, judge(con, ds, ctx, source, present, {}, rel, now))
    finally:
        con.execute("DROP TABLE IF EXISTS _csv_rows").fetchall()
    if rejects:
        _renumber(con, rejects)
    return finish_file(con, ds, rel, now, fr, extra_rejects=len(rejects))


def _readable_csv(path: Path, facts: fs.FileFacts, tmp: Path) -> tuple[Path, str] | str:
    """Where a CSV file is read from (a UTF-8 copy of one in another encoding, in ``tmp``) and the
    text of its head; or what is wrong with its encoding."""
    enc = fs.decide_encoding(facts)
    if enc.problem:
        return enc.problem
    if enc.codec == "utf-8":
        return path, facts.head.decode("utf-8", errors="replace").lstrip("\ufeff")
    try:
        read_path = fs.transcode(path, enc.codec, tmp)
    except (UnicodeDecodeError, UnicodeError):
        return "the file mixes text encodings (it is not all UTF-8, UTF-16 or Windows-1252); " + fs.SAVE_AS
    with open(read_path, "rb") as handle:
        head = handle.read(fs.HEAD)
    return read_path, head.decode("utf-8", errors="replace").lstrip("\ufeff")


def read_csv_sql(names, delimiter: str, skip: int) -> str:
    """DuckDB's reading of the CSV file(s) $path: every cell text, the header's columns in order."""
    columns = "{" + ", ".join(f"'c{i}': 'VARCHAR'" for i in range(len(names))) + "}"
    return (
        f"read_csv($path, auto_detect = false, header = false, skip = {int(skip)}, "
        f"columns = {columns}, delim = {lit(delimiter)}, quote = '\"', escape = '\"', "
        f"strict_mode = true, store_rejects = true, rejects_table = '_rej_errors', "
        f"rejects_scan = '_rej_scans', max_line_size = 2000000, filename = true)"
    )


def swallowed_sql(where: dict[str, int], delimiter: str, ncols: int) -> str:
    """The reason of a row one of whose cells runs over a line break with a whole row's worth of
    separators in it (a quote left open), or NULL."""
    cases = " ".join(
        f"WHEN contains(c{i}, chr(10)) AND length(c{i}) - length(replace(c{i}, {lit(delimiter)}, '')) "
        f">= {max(ncols - 1, 1)} THEN {lit(_swallow_reason(name))}"
        for name, i in where.items()
    )
    return f"CASE {cases} END" if cases else "CAST(NULL AS VARCHAR)"


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
            side().execute("DESCRIBE SELECT * FROM read_parquet($path)", {"path": str(path)}).fetchall()
        )
    except duckdb.Error as exc:
        cut = "magic bytes" in str(exc).lower() or "too small" in str(exc).lower()
        return whole_file_problem(con, ds, rel, PARQUET_CUT if cut else PARQUET_UNREADABLE, now)
    aliases = column_aliases(ds)
    names = [(aliases.get(fs.clean_header(n), fs.clean_header(n)), n, t) for n, t, *_ in described]
    cleaned = [n for n, _, _ in names]
    missing = [c for c in ds.required if c not in cleaned]
    if missing:
        return whole_file_problem(con, ds, rel, fs.missing_header(ds.required, cleaned), now)
    dupes = fs.duplicate_names(cleaned)
    if dupes:
        return whole_file_problem(con, ds, rel, dupes, now)
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
    loaded = straight.load_straight(
        con, ds, ctx, source, present, {"path": str(path)}, rel, now, _parquet_rows(path)
    )
    if loaded is not None:
        return loaded
    judge(con, ds, ctx, source, present, {"path": str(path)}, rel, now)
    return finish_file(con, ds, rel, now, fr)


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
        return {name for name, ok in side().execute(query, {"path": str(path)}).fetchall() if ok}
    except duckdb.Error:
        return set()


def _parquet_rows(path: Path) -> int | None:
    """The number of rows a Parquet file's footer declares (None when it cannot be read)."""
    try:
        return int(
            side()
            .execute("SELECT sum(num_rows) FROM parquet_file_metadata($path)", {"path": str(path)})
            .fetchall()[0][0]
        )
    except (duckdb.Error, TypeError):
        return None
