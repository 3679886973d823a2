"""Reading one input file into a frame of text cells, or saying why it is not a table.

A file that is not a table at all (binary, empty, not UTF-8, no header with the
required columns, a damaged workbook) becomes one ``FileProblem``; a CSV line
with the wrong number of fields becomes one bad row, and the rest of the file
is still read.
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from outfall.ingest.parse import clean_header


@dataclass
class ReadResult:
    frame: pd.DataFrame | None = None  # text cells (csv/xlsx) or native (parquet); + source_row
    problem: str | None = None  # the whole file is unusable
    bad_rows: list[tuple[int, str, str]] = field(default_factory=list)  # (row_number, reason, raw line)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def list_input_files(folder: Path) -> list[Path]:
    """Every file under the dataset folder (sub-folders included), in name
    order; hidden files and office lock files (``~$x.xlsx``) are skipped."""
    if not folder.is_dir():
        return []
    files = [p for p in folder.rglob("*") if p.is_file()
             and not any(part.startswith(".") for part in p.relative_to(folder).parts)
             and not p.name.startswith("~$")]
    return sorted(files, key=lambda p: p.relative_to(folder).as_posix())


def _read_csv_text(text: str) -> ReadResult:
    try:
        frame = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False, na_filter=False,
                            skip_blank_lines=True, skipinitialspace=False)
        return ReadResult(frame=frame)
    except pd.errors.EmptyDataError:
        return ReadResult(problem="the file has no header row and no data")
    except pd.errors.ParserError:
        pass
    # Lines with the wrong number of fields: read line by line, set them aside.
    rows = [r for r in csv.reader(io.StringIO(text))]
    rows = [r for r in rows if any(cell.strip() for cell in r)]
    header, body = rows[0], rows[1:]
    good, bad = [], []
    for number, row in enumerate(body, start=1):
        if len(row) == len(header):
            good.append((number, row))
        else:
            bad.append((number, f"row has {len(row)} fields but the header has {len(header)}; "
                                f"check for an unquoted comma", ",".join(row)))
    frame = pd.DataFrame([r for _, r in good], columns=header, dtype=str)
    frame.index = [n - 1 for n, _ in good]
    return ReadResult(frame=frame, bad_rows=bad)


def read_table(path: Path, dataset: str, extensions: tuple[str, ...], required: list[str]) -> ReadResult:
    suffix = path.suffix.lower()
    if suffix not in extensions:
        allowed = " or ".join(extensions)
        return ReadResult(problem=f"file type '{suffix or '(none)'}' is not accepted for {dataset} (use {allowed})")
    if path.stat().st_size == 0:
        return ReadResult(problem="the file is empty")
    if suffix == ".csv":
        data = path.read_bytes()
        if b"\x00" in data[:8192]:
            return ReadResult(problem="the file is binary, not CSV text")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return ReadResult(problem="the file is not UTF-8 text; save it as 'CSV UTF-8'")
        if not text.strip():
            return ReadResult(problem="the file is empty")
        result = _read_csv_text(text)
    elif suffix == ".xlsx":
        try:
            frame = pd.read_excel(path, sheet_name=0, dtype=str, keep_default_na=False, na_filter=False,
                                  engine="openpyxl")
        except Exception as exc:  # noqa: BLE001 - any reader failure means "not a workbook"
            return ReadResult(problem=f"the file is not a readable .xlsx workbook ({type(exc).__name__})")
        result = ReadResult(frame=frame)
    elif suffix == ".parquet":
        try:
            frame = pd.read_parquet(path)
        except Exception as exc:  # noqa: BLE001
            return ReadResult(problem=f"the file is not a readable Parquet file ({type(exc).__name__})")
        result = ReadResult(frame=frame.reset_index(drop=True))
    else:  # pragma: no cover - guarded by extensions
        return ReadResult(problem=f"unsupported file type '{suffix}'")
    if result.problem:
        return result
    frame = result.frame
    names = [clean_header(c) for c in frame.columns]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        return ReadResult(problem=f"the header names column(s) {', '.join(dupes)} more than once")
    frame.columns = names
    missing = [c for c in required if c not in names]
    if missing:
        shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
        return ReadResult(problem=f"no header row with the required column(s) {', '.join(missing)} "
                                  f"(found: {shown})")
    frame = frame.copy()
    frame["source_row"] = frame.index.to_numpy() + 1
    frame = frame.reset_index(drop=True)
    return ReadResult(frame=frame, bad_rows=result.bad_rows)
