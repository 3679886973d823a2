"""Ingestion of one dataset folder into its DuckDB table.

For each file not loaded before (ledger ``ingested_files``: path + sha256):
read it, parse every column, apply the dataset's own checks, send rejected
rows to ``quarantine`` with their reason, and merge the kept rows under the
natural key (a corrected re-send supersedes; the old row goes to
``<table>_history``). Call it inside one transaction per dataset.

Invariant, per file and per dataset: rows read = rows kept + rows quarantined.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from outfall.ingest import parse
from outfall.ingest.datasets import RENAMES, Context, Dataset
from outfall.ingest.files import ReadResult, list_input_files, read_table, sha256_of
from outfall.warehouse import sql, table_columns

PROVENANCE = ("source_file", "source_row", "loaded_at", "row_hash")


@dataclass
class FileReport:
    source_file: str
    rows_read: int = 0
    rows_kept: int = 0
    rows_quarantined: int = 0
    rows_new: int = 0
    rows_superseded: int = 0
    skipped: bool = False  # already loaded, unchanged


@dataclass
class DatasetReport:
    dataset: str
    files: list[FileReport] = field(default_factory=list)

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
    def files_loaded(self) -> int:
        return sum(1 for f in self.files if not f.skipped)

    @property
    def files_skipped(self) -> int:
        return sum(1 for f in self.files if f.skipped)


def run_script(con: duckdb.DuckDBPyConnection, text: str, params: dict) -> None:
    """Run each statement of a SQL script, binding the named parameters it uses."""
    body = "\n".join(line for line in text.splitlines() if not line.strip().startswith("--"))
    for statement in (s.strip() for s in body.split(";")):
        if statement:
            used = {k: v for k, v in params.items() if re.search(rf"\${k}\b", statement)}
            con.execute(statement, used).fetchall()


# ---------------------------------------------------------------------------
# validation (pure: frames in, frames out)


def row_hash(frame: pd.DataFrame) -> pd.Series:
    """A stable hash of each row's canonical values (same values, same hash)."""
    cols = {}
    for name in frame.columns:
        col = frame[name]
        if col.dtype == object:
            col = col.fillna("\x00").astype(str)
        cols[name] = col
    return pd.util.hash_pandas_object(pd.DataFrame(cols), index=False).astype(str)


def validate(raw: pd.DataFrame, ds: Dataset, ctx: Context) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Typed kept rows (with source_row, row_hash) and rejected rows
    (row_number, reason, raw)."""
    typed = pd.DataFrame(index=raw.index)
    parts: list[pd.Series] = []
    groups = None
    if ds.timestamp_groups:
        cols = [raw[c].astype(str) if c in raw else pd.Series("", index=raw.index) for c in ds.timestamp_groups]
        groups = cols[0]
        for c in cols[1:]:
            groups = groups + "|" + c
    for col in ds.columns:
        series = raw[col.name] if col.name in raw else pd.Series(None, index=raw.index, dtype=object)
        empty = parse.blank(series)
        if col.required:
            parts.append(pd.Series(np.where(empty, f"missing required value for '{col.name}'", ""), index=raw.index))
        if col.kind == "number":
            values, why = parse.parse_number(series, col.name)
        elif col.kind == "integer":
            values, why = parse.parse_integer(series, col.name)
        elif col.kind == "date":
            values, why = parse.parse_date(series, col.name)
        elif col.kind == "timestamp":
            values, why = parse.parse_timestamp(series, col.name, groups)
        elif col.kind == "bool":
            values, why = parse.parse_bool(series, col.name)
        elif col.kind == "enum":
            values, why = parse.parse_enum(series, col.name, col.canonical, col.allowed)
        else:
            values, why = parse.parse_text(series), pd.Series("", index=raw.index, dtype=object)
        if col.nonnegative and col.kind in ("number", "integer"):
            neg = values.notna() & (values.astype(float) < 0)
            why = why.where(~neg, f"negative value in column '{col.name}' (" + series.astype(str) + ")")
        parts.append(why)
        typed[col.name] = values
    if ds.finish is not None:
        typed, extra = ds.finish(typed, raw, ctx)
        parts.append(pd.Series(extra, index=raw.index).fillna(""))
    typed = typed.rename(columns=RENAMES.get(ds.name, {}))
    reasons = parse.join_reasons(*parts) if parts else pd.Series("", index=raw.index)
    typed["source_row"] = raw["source_row"].to_numpy()

    value_cols = [c for c in typed.columns if c not in PROVENANCE]
    typed["row_hash"] = row_hash(typed[value_cols])

    # Two rows of one file with the same natural key: an exact repeat is
    # harmless; different values cannot both be right, so the later row is
    # set aside for the clerk to resolve.
    ok = reasons == ""
    key = list(ds.key)
    if ok.any():
        good = typed[ok]
        first_row = good.groupby(key, dropna=False)["source_row"].transform("first")
        first_hash = good.groupby(key, dropna=False)["row_hash"].transform("first")
        later = good["source_row"] != first_row
        conflict = later & (good["row_hash"] != first_hash)
        repeat = later & ~conflict
        if conflict.any():
            msg = ("conflicts with row " + first_row[conflict].astype(str) + " of this file (same "
                   + " + ".join(k for k in ds.key) + ", different values); send one corrected row")
            reasons.loc[msg.index] = msg
        drop_repeat = repeat[repeat].index
    else:
        drop_repeat = []
    ok = reasons == ""
    kept = typed[ok].drop(index=[i for i in drop_repeat if i in typed.index and ok.get(i, False)])
    rejected_idx = reasons.index[~ok]
    raw_cols = [c for c in raw.columns if c != "source_row"]
    raw_json = [json.dumps({k: _jsonable(v) for k, v in rec.items()}, ensure_ascii=False)
                for rec in raw.loc[rejected_idx, raw_cols].to_dict("records")]
    rejected = pd.DataFrame({
        "row_number": raw.loc[rejected_idx, "source_row"].astype(int).to_numpy(),
        "reason": reasons.loc[rejected_idx].to_numpy(),
        "raw": raw_json,
    })
    return kept, rejected


def _jsonable(value):
    if isinstance(value, (pd.Timestamp, dt.date, dt.datetime)):
        return str(value)
    if isinstance(value, float) and np.isnan(value):
        return None
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    return value if value is None or isinstance(value, (str, int, float, bool)) else str(value)


# ---------------------------------------------------------------------------
# loading into DuckDB


def _key_match(ds: Dataset) -> str:
    return " AND ".join(f't."{k}" IS NOT DISTINCT FROM i."{k}"' for k in ds.key)


def _merge(con, ds: Dataset, kept: pd.DataFrame, source_file: str, now: dt.datetime) -> tuple[int, int]:
    """Merge kept rows; returns (rows new or changed, rows superseded)."""
    if kept.empty:
        return 0, 0
    cols = table_columns(con, ds.name)
    frame = kept.copy()
    frame["source_file"] = source_file
    frame["loaded_at"] = pd.Timestamp(now)
    frame = frame.reindex(columns=cols)
    table, key_match = ds.name, _key_match(ds)
    con.register("_incoming", frame)
    try:
        superseded = con.execute(
            f'SELECT count(*) FROM "{table}" AS t JOIN _incoming AS i ON {key_match} WHERE t.row_hash <> i.row_hash'
        ).fetchall()[0][0]
        before = con.execute(f'SELECT count(*) FROM "{table}"').fetchall()[0][0]
        run_script(con, sql("merge_into_dataset").format(table=table, key_match=key_match),
                   {"source_file": source_file, "now": now})
        after = con.execute(f'SELECT count(*) FROM "{table}"').fetchall()[0][0]
    finally:
        con.unregister("_incoming")
    return int(after - before + superseded), int(superseded)


def _quarantine(con, dataset: str, source_file: str, rejected: pd.DataFrame, now: dt.datetime) -> None:
    if rejected.empty:
        return
    con.register("_rejected", rejected[["row_number", "reason", "raw"]])
    try:
        run_script(con, sql("insert_quarantine"), {"dataset": dataset, "source_file": source_file, "now": now})
    finally:
        con.unregister("_rejected")


def ensure_history(con, ds: Dataset) -> None:
    run_script(con, sql("create_history_table").format(table=ds.name), {})


def ingest_dataset(con: duckdb.DuckDBPyConnection, ds: Dataset, data_dir: Path, ctx: Context,
                   now: dt.datetime | None = None) -> DatasetReport:
    """Load every new or changed file of ``data_dir/<dataset>`` (call inside a transaction)."""
    now = now or dt.datetime.now(dt.timezone.utc)
    ensure_history(con, ds)
    report = DatasetReport(ds.name)
    ledger = dict(con.execute("SELECT source_file, sha256 FROM ingested_files WHERE dataset = ?",
                              [ds.name]).fetchall())
    folder = data_dir / ds.name
    for path in list_input_files(folder):
        # The file's name within its dataset folder (the `dataset` column names the folder).
        rel = path.relative_to(folder).as_posix()
        digest = sha256_of(path)
        if ledger.get(rel) == digest:
            report.files.append(FileReport(rel, skipped=True))
            continue
        if rel in ledger:
            run_script(con, sql("delete_file_loads"), {"dataset": ds.name, "source_file": rel})
        fr = _load_file(con, ds, path, rel, ctx, now)
        run_script(con, sql("insert_ingested_file"), {
            "dataset": ds.name, "source_file": rel, "sha256": digest, "size_bytes": path.stat().st_size,
            "now": now, "rows_read": fr.rows_read, "rows_kept": fr.rows_kept,
            "rows_quarantined": fr.rows_quarantined, "rows_new": fr.rows_new,
            "rows_superseded": fr.rows_superseded})
        report.files.append(fr)
    return report


def _load_file(con, ds: Dataset, path: Path, rel: str, ctx: Context, now: dt.datetime) -> FileReport:
    fr = FileReport(rel)
    result: ReadResult = read_table(path, ds.name, ds.extensions, ds.required)
    if result.problem:
        _quarantine(con, ds.name, rel, pd.DataFrame({"row_number": [0], "reason": [result.problem],
                                                     "raw": [None]}), now)
        fr.rows_read = fr.rows_quarantined = 1
        return fr
    kept, rejected = validate(result.frame, ds, ctx)
    if result.bad_rows:
        extra = pd.DataFrame(result.bad_rows, columns=["row_number", "reason", "raw"])
        rejected = pd.concat([rejected, extra], ignore_index=True).sort_values("row_number", kind="stable")
    _quarantine(con, ds.name, rel, rejected, now)
    fr.rows_read = len(result.frame) + len(result.bad_rows)
    fr.rows_quarantined = len(rejected)
    fr.rows_kept = fr.rows_read - fr.rows_quarantined
    fr.rows_new, fr.rows_superseded = _merge(con, ds, kept, rel, now)
    return fr
