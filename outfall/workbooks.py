"""Workbooks people fill in Excel and save into an input folder: a dataset's header row with a note on
each column (what it holds, whether it is required, an example) and Excel's own checks of what is
typed (data validation: dates, numbers, whole numbers, the words of a list), all made from the dataset's
spec (``outfall.ingest.datasets``). ``outfall templates`` writes the empty forms of every folder with
them, and the ``to_record`` asset the rows that wait for a person's answer.

The example of a column is in its header's note, never in a row: a row left in a sheet would be read.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Iterable, Sequence

from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from outfall.ingest.datasets import PREFILLED_COLUMN, Column, Dataset, default_codes
from outfall.ingest.xlsx import NOTES_SHEET
from outfall.rules import jurisdictions

LAST_ROW = 1048576  # Excel's last row: a column's checks cover every row a person may type in
LIST_MAX = 255  # characters Excel allows in a list written into its check
HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", fgColor="DDEBF7")
HELPER_FILL = PatternFill("solid", fgColor="EDEDED")
REQUIRED_FILL = PatternFill("solid", fgColor="FFF2CC")  # a cell required on its row, though not on every row
WRAPPED = Alignment(wrap_text=True, vertical="top")
AUTHOR = "Outfall"

# Who fills a folder, by its spec's keeper (from its area): the official named in the rules' law_names (the
# pages' one name for each person), else these words.
PEOPLE = {
    "superintendent": "Superintendent of Sewage",
    "stormwater_officer": "Stormwater Management Officer",
    "clerk": "Clerk",
}
PEOPLE_LAW_NAMES = {"superintendent": "sewer_administrator", "stormwater_officer": "stormwater_officer"}

# How a column of each kind is described, its example, and how Excel shows a typed value.
KIND_WORDS = {
    "text": "Text.",
    "number": "A number.",
    "integer": "A whole number.",
    "date": "A date.",
    "timestamp": "A date and time, or a date; the town's local time (the time zone of its rules) unless it "
    "ends with an offset such as -05:00.",
    "bool": "Yes or no.",
    "enum": "One of the words in the list.",
}
EXAMPLES = {
    "text": "",
    "number": "12.5",
    "integer": "3",
    "date": "2026-03-14",
    "timestamp": "2026-03-14 09:30",
    "bool": "yes",
    "enum": "",
}
FORMATS = {"text": "@", "date": "yyyy-mm-dd", "timestamp": "yyyy-mm-dd hh:mm", "enum": "@"}


def person(ds: Dataset, laws: dict[str, str] | None = None) -> str:
    """Who fills the folder: ``laws`` (the rules' names, law_names) name the officials."""
    law = PEOPLE_LAW_NAMES.get(ds.keeper)
    return (laws or {}).get(law or "") or PEOPLE.get(ds.keeper, "Whoever keeps these records")


def words(col: Column) -> tuple[str, ...]:
    """The words a column's list offers: its vocabulary's own names (enum), yes and no (bool), or the
    choices a finish step judges (units, parameters); none for other columns."""
    if col.kind == "enum" and col.vocabulary is not None and col.vocabulary.rules_codes:
        # a district, a property class, a component: the codes of the town's rules
        return tuple(dict.fromkeys(default_codes().get(col.vocabulary.rules_codes, {}).values()))
    if col.kind == "enum" and col.vocabulary is not None:
        # a site's jurisdiction: one of the rules files found
        return tuple(dict.fromkeys(col.vocabulary.for_jurisdictions(jurisdictions()).values()))
    if col.kind == "bool":
        return ("yes", "no")
    return col.choices


def example(col: Column) -> str:
    listed = words(col)
    return col.example or (listed[0] if listed else EXAMPLES[col.kind])


def column_note(col: Column) -> str:
    """The header's note: whether it is required (or when: a column whose own words say when it is
    required), what the column holds, and an example: what the reader requires of it, exactly."""
    doc = col.doc.replace("`", "")
    if not col.required and "required" in doc:
        lines = [f"{col.name}: {doc}."]
    else:
        lines = [f"{col.name}: {'required' if col.required else 'may be left blank'}."]
        lines += [doc[:1].upper() + doc[1:] + "."] if doc else []
    kind = KIND_WORDS[col.kind]
    if col.nonnegative and col.kind in ("number", "integer"):
        kind = kind[:-1] + ", 0 or more."
    lines.append(kind)
    if col.kind == "enum" and col.vocabulary is not None and col.vocabulary.rules_codes:
        lines.append(f"Allowed: {', '.join(words(col)) or 'any text (the town names none)'}.")
    elif col.kind == "enum":
        lines.append(f"Allowed: {col.allowed}.")
    elif col.choices:
        lines.append(f"Usually one of: {', '.join(col.choices)}; other words are read too.")
    if example(col):
        lines.append(f"Example: {example(col)}")
    return "\n".join(lines)


def _check(
    kind: str, operator: str | None = None, low: str | None = None, high: str | None = None, **texts
) -> DataValidation:
    check = DataValidation(
        type=kind,
        operator=operator,
        formula1=low,
        formula2=high,
        allow_blank=True,
        showErrorMessage=True,
        **texts,
    )
    return check


def column_check(col: Column) -> DataValidation | None:
    """Excel's check of what is typed in the column (None: any text); a list whose words Outfall judges
    more widely (synonyms, other parameters) only warns."""
    listed = words(col)
    if listed:
        strict = col.kind in ("enum", "bool")
        text = ",".join(listed)
        if len(text) > LIST_MAX - 2 or any("," in w for w in listed):
            return None
        return _check(
            "list",
            low=f'"{text}"',
            errorStyle="stop" if strict else "warning",
            errorTitle="Not in the list",
            error=(
                "Pick a word from the list." if strict else "Not one of the usual words: check the spelling."
            ),
        )
    if col.kind in ("number", "integer"):
        kind = "decimal" if col.kind == "number" else "whole"
        what = "a number" if col.kind == "number" else "a whole number"
        if col.nonnegative:
            return _check(
                kind, "greaterThanOrEqual", "0", errorTitle="Not a number", error=f"Type {what}, 0 or more."
            )
        return _check(kind, "between", "-1E+15", "1E+15", errorTitle="Not a number", error=f"Type {what}.")
    if col.kind == "date":
        return _check(
            "date",
            "greaterThanOrEqual",
            "1",
            errorTitle="Not a date",
            error="Type a date, for example 2026-03-14.",
        )
    if col.kind == "timestamp":
        return _check(
            "date",
            "greaterThanOrEqual",
            "1",
            errorStyle="warning",
            errorTitle="Not a date",
            error="Type a date and time, for example 2026-03-14 09:30, or a date.",
        )
    return None


def whole_number_check(low: int, high: int | None, rows: Iterable[str]) -> DataValidation:
    """A whole number from ``low`` to ``high`` (no upper end when None), in the cells ``rows``."""
    error = (
        f"Type a whole number from {low} to {high}."
        if high is not None
        else f"Type a whole number, {low} or more."
    )
    check = (
        _check("whole", "between", str(low), str(high), errorTitle="Not allowed", error=error)
        if high is not None
        else _check("whole", "greaterThanOrEqual", str(low), errorTitle="Not allowed", error=error)
    )
    for ref in rows:
        check.add(ref)
    return check


# A text beginning with one of these is a formula to Excel (or becomes one when the cell is edited).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def put(cell, value) -> None:
    """``value`` into ``cell``; a text is always text, never a formula (a site named '=HYPERLINK(...)' in an
    input file stays that name), with Excel's quote prefix when it begins like one."""
    cell.value = value
    if isinstance(value, str):
        cell.data_type = "s"
        if value.startswith(FORMULA_STARTS):
            cell.quotePrefix = True
    elif isinstance(value, dt.date):
        cell.number_format = FORMATS["timestamp" if isinstance(value, dt.datetime) else "date"]


def write_header(
    ws, ds: Dataset, helpers: Sequence[tuple[str, str]] = (), marker: bool = False
) -> dict[str, str]:
    """Row 1 of a dataset's sheet: its columns (each with its note), then ``helpers`` (name, note: grey
    columns for reading, which the folder does not read), then, with ``marker``, the hidden column that
    marks the rows Outfall prefilled. Returns each column's letter by name; the header row stays in view."""
    letters: dict[str, str] = {}
    cells = [(c.name, column_note(c), HEADER_FILL) for c in ds.columns]
    cells += [
        (name, f"{note}\nFor reading only: the folder does not read this column.", HELPER_FILL)
        for name, note in helpers
    ]
    if marker:
        cells.append(
            (
                PREFILLED_COLUMN,
                "Outfall marks each row it wrote here, so that a row left with nothing filled in "
                "records nothing (it is counted as left blank). Keep it.",
                HELPER_FILL,
            )
        )
    for index, (name, note, fill) in enumerate(cells, start=1):
        cell = ws.cell(row=1, column=index, value=name)
        cell.font, cell.fill = HEADER_FONT, fill
        cell.comment = Comment(note, AUTHOR, height=160, width=320)
        letter = get_column_letter(index)
        ws.column_dimensions[letter].width = max(12, min(40, len(name) + 4))
        letters[name] = letter
    if marker:
        ws.column_dimensions[letters[PREFILLED_COLUMN]].hidden = True
    ws.freeze_panes = "A2"
    return letters


def add_checks(
    ws, ds: Dataset, letters: dict[str, str], first_row: int = 2, skip: Iterable[str] = ()
) -> None:
    """Excel's check of each column of ``ds`` (but ``skip``), from ``first_row`` down to Excel's last
    row, and the way Excel shows what is typed there (text stays text: '2026-03' and '00123' too)."""
    skipped = set(skip)
    for col in ds.columns:
        letter = letters[col.name]
        if col.kind in FORMATS:
            ws.column_dimensions[letter].number_format = FORMATS[col.kind]
        if col.name in skipped:
            continue
        check = column_check(col)
        if check is not None:
            check.add(f"{letter}{first_row}:{letter}{LAST_ROW}")
            ws.add_data_validation(check)


def notes_sheet(wb, paragraphs: Sequence[str], table: Sequence[Sequence[str]] = ()):
    """The first sheet, "Read me": plain paragraphs, then a table whose first row is its header."""
    ws = wb.create_sheet(NOTES_SHEET, 0)
    for text in paragraphs:
        ws.append([text])
    if table:
        ws.append([])
        ws.append(list(table[0]))
        for cell in ws[ws.max_row]:
            cell.font, cell.fill = HEADER_FONT, HEADER_FILL
        for row in table[1:]:
            ws.append(list(row))
            for cell in ws[ws.max_row]:
                cell.alignment = WRAPPED
    for letter, width in zip("ABCD", (28, 30, 70, 70)):
        ws.column_dimensions[letter].width = width
    return ws


def workbook_bytes(wb, when: dt.datetime) -> bytes:
    """The workbook as bytes that depend on its content only: dated ``when`` inside (openpyxl dates the
    saving itself: that date is replaced) and in its archive, so that the same rows give the same file."""
    naive = when.replace(tzinfo=None, microsecond=0)
    wb.properties.created = naive
    wb.properties.creator = AUTHOR
    raw = io.BytesIO()
    wb.save(raw)
    stamp = max(naive, dt.datetime(1980, 1, 1)).timetuple()[:6]
    modified = f'<dcterms:modified xsi:type="dcterms:W3CDTF">{naive.isoformat()}Z</dcterms:modified>'.encode()
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(raw.getvalue())) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == "docProps/core.xml":
                data = re.sub(rb"<dcterms:modified [^>]*>[^<]*</dcterms:modified>", modified, data)
            entry = zipfile.ZipInfo(info.filename, date_time=stamp)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = info.external_attr
            target.writestr(entry, data)
    return out.getvalue()
