"""Workbooks (.xlsx, small files): every sheet that has the required header
is read with openpyxl in read-only mode and handed to DuckDB as Arrow; any
other non-empty sheet is one quarantine row naming it, except two kinds that
are not this folder's and are only named in the run log: a sheet named after
another input folder (one workbook with a sheet per folder, such as
``exports/to_record.xlsx``, is saved into each of them, and each folder reads
its own sheet) and the notes sheet "Read me" of Outfall's own workbooks.

Cells are read as Excel shows them: a formula is read as its last calculated
value and never evaluated; a formula saved without a calculated value makes
its row quarantined (open and save the workbook in Excel). A title above the
header (one of the first rows, merged across the columns or not) is skipped; a
merged header cell names the column under its first cell. Dates and times
become ISO text, numbers their shortest text (never with an exponent), so the
SQL judging is the same as for CSV; a number shown as a percentage is read as
the text shown ('50%'), never as the fraction behind it (0.5).
"""

from __future__ import annotations

import datetime as dt
import math
import zipfile
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from outfall.ingest.files import HEADER_SEARCH_ROWS, duplicate_names, missing_header
from outfall.ingest.parse import clean_header

# The sheet of notes Outfall puts first in the workbooks it writes (``outfall.workbooks``).
NOTES_SHEET = "Read me"
NOTES_SHEET_KEY = clean_header(NOTES_SHEET)
OTHER_FOLDER, NOTES = "another folder's", "notes"  # why a sheet is skipped
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ENCRYPTED_MARK = "EncryptedPackage".encode("utf-16-le")


@dataclass
class Sheet:
    name: str
    columns: dict[str, list] = field(default_factory=dict)  # r_<column> -> cells (text)
    rows: list[int] = field(default_factory=list)  # row_number of each row
    notes: list[str | None] = field(default_factory=list)  # a reason from the workbook itself
    problem: str | None = None
    skipped: str | None = (
        None  # not this folder's (OTHER_FOLDER, NOTES): named in the run log, never quarantined
    )


def workbook_problem(path: Path) -> str | None:
    """Why the file is not a workbook openpyxl can read, in words a clerk can act on."""
    with open(path, "rb") as handle:
        head = handle.read(1 << 16)
    if head.startswith(OLE_MAGIC):
        if ENCRYPTED_MARK in head or _contains(path, ENCRYPTED_MARK):
            return (
                "the workbook is password-protected: open it in Excel, remove the password (File > Info > "
                "Protect Workbook > Encrypt with Password, then an empty password) and save it again"
            )
        return "the file is an old Excel 97-2003 workbook (.xls): open it in Excel and save it as .xlsx"
    if not zipfile.is_zipfile(path):
        return (
            "the file is not a readable .xlsx workbook (it is not a zip archive); save it from Excel as .xlsx"
        )
    return None


def _contains(path: Path, needle: bytes) -> bool:
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            if needle in chunk:
                return True
    return False


def _has_formulas(path: Path) -> bool:
    """Whether any worksheet holds a formula (an <f> element), without parsing the workbook."""
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if name.startswith("xl/worksheets/") and name.endswith(".xml"):
                with archive.open(name) as part:
                    tail = b""
                    while chunk := part.read(1 << 20):
                        data = tail + chunk
                        if b"<f>" in data or b"<f " in data or b"<x:f" in data:
                            return True
                        tail = data[-8:]
    return False


def _text(value) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        # the shortest text of the number; a small one written out without an exponent (1e-05 is 0.00001)
        small = math.isfinite(value) and abs(value) < 1e15
        return _positional(Decimal(repr(value))) if small else repr(value)
    return str(value)


def _positional(number: Decimal) -> str:
    text = format(number, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _cell_value(cell):
    """The cell's value; a number shown as a percentage is the text Excel shows ('50%' for 0.5), so that
    it is never read as the fraction behind it."""
    value = cell.value
    if isinstance(value, (int, float)) and not isinstance(value, bool) and "%" in (cell.number_format or ""):
        return _positional(Decimal(repr(value)) * 100) + "%"
    return value


def _row_values(cells) -> tuple:
    return tuple(_cell_value(c) for c in cells)


def read_workbook(
    path: Path,
    spec_columns: list[str],
    required: list[str],
    aliases: dict[str, str],
    dataset: str = "",
    others: frozenset[str] = frozenset(),
) -> list[Sheet]:
    """Every non-empty sheet of the workbook: read (columns of the spec found in
    its header), a problem naming it, or skipped (``Sheet.skipped``: a sheet named
    after another dataset in ``others``, which belongs to that dataset's folder, or
    Outfall's own notes sheet). The sheet named after ``dataset``, when there is one,
    is read as any sheet with the header is."""
    import openpyxl

    values_wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    formulas_wb = None
    sheets: list[Sheet] = []
    try:
        for ws in values_wb.worksheets:
            sheet, header, header_index, missing_values = _read_sheet(
                ws, spec_columns, required, aliases, dataset, others
            )
            if sheet is None:
                continue
            if missing_values and _has_formulas(path):
                if formulas_wb is None:
                    formulas_wb = openpyxl.load_workbook(path, read_only=True, data_only=False)
                _mark_uncalculated(formulas_wb[ws.title], header_index, sheet, missing_values, header)
            sheets.append(sheet)
    finally:
        values_wb.close()
        if formulas_wb is not None:
            formulas_wb.close()
    return sheets


def _blank_row(row) -> bool:
    return not any(c is not None and str(c).strip() for c in row)


def _find_header(rows, required: list[str], aliases: dict[str, str]):
    """(header names or None, its row index, the first non-blank row's names or None: the sheet is empty)."""
    first_names: list[str] | None = None
    seen = 0
    for index, row in enumerate(rows, start=1):
        if _blank_row(row):
            continue
        seen += 1
        names = [aliases.get(clean_header(c), clean_header(c)) if c is not None else "" for c in row]
        first_names = first_names or names
        if all(r in names for r in required):
            return names, index, first_names
        if seen >= HEADER_SEARCH_ROWS:
            break
    return None, 0, first_names


def _read_sheet(
    ws,
    spec_columns: list[str],
    required: list[str],
    aliases: dict[str, str],
    dataset: str,
    others: frozenset[str],
):
    """(the sheet or None when empty, its header, the header's row index, rows with empty cells)."""
    sheet = Sheet(ws.title)
    key = clean_header(ws.title)
    rows = map(_row_values, ws.iter_rows())
    header, header_index, first_names = _find_header(rows, required, aliases)
    if first_names is None:
        return None, None, 0, []
    if key in others and key != dataset:
        sheet.skipped = OTHER_FOLDER
        return sheet, None, 0, []
    if header is None:
        if key == NOTES_SHEET_KEY:
            sheet.skipped = NOTES
        else:
            sheet.problem = f"sheet '{ws.title}' was not read: " + missing_header(required, first_names)
        return sheet, None, 0, []
    dupes = duplicate_names(header)
    if dupes:
        sheet.problem = f"sheet '{ws.title}' was not read: {dupes}"
        return sheet, None, 0, []
    return (sheet, header, header_index, _read_rows(rows, sheet, header, spec_columns))


def _read_rows(rows, sheet: Sheet, header: list[str], spec_columns: list[str]) -> list[tuple[int, list[int]]]:
    """The rows below the header into ``sheet``; the rows with empty cells (position, column indexes)."""
    where = {c: header.index(c) for c in spec_columns if c in header}
    sheet.columns = {c: [] for c in where}
    missing_values: list[tuple[int, list[int]]] = []
    number = 0
    for row in rows:
        if _blank_row(row):
            continue
        number += 1
        nones = []
        for col, i in where.items():
            cell = row[i] if i < len(row) else None
            sheet.columns[col].append(_text(cell))
            if cell is None:
                nones.append(i)
        sheet.rows.append(number)
        sheet.notes.append(None)
        if nones:
            missing_values.append((len(sheet.rows) - 1, nones))
    return missing_values


def _mark_uncalculated(
    ws, header_index: int, sheet: Sheet, missing: list[tuple[int, list[int]]], header: list[str]
) -> None:
    """Rows whose empty cells hold a formula: the workbook was saved without
    calculated values (some programs write formulas only)."""
    wanted = dict(missing)
    position = -1
    for index, row in enumerate(ws.iter_rows(values_only=True), start=1):
        if index <= header_index or not any(c is not None and str(c).strip() for c in row):
            continue
        position += 1
        if position not in wanted:
            continue
        cols = [
            header[i]
            for i in wanted[position]
            if i < len(row) and isinstance(row[i], str) and row[i].startswith("=")
        ]
        if cols:
            sheet.notes[position] = (
                f"the cell(s) {', '.join(cols)} hold a formula with no calculated value: the "
                "workbook was saved without calculated values; open it in Excel and save it again"
            )


def sheet_arrow(sheet: Sheet):
    import pyarrow as pa

    data = {
        "source_row": pa.array(sheet.rows, pa.int64()),
        "_source_reason": pa.array(sheet.notes, pa.string()),
    }
    for col, cells in sheet.columns.items():
        data["r_" + col] = pa.array(cells, pa.string())
    return pa.table(data)
