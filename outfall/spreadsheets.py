"""Every CSV and XLSX file Outfall writes goes through the two writers here.

CSV (:func:`csv_bytes`, :func:`query_csv_bytes`, :func:`write_csv`)
    UTF-8 with a byte-order mark, so that Excel reads "§" as "§" and not "Â§";
    a header row; text quoted; numbers, dates and booleans as they are.

XLSX (:func:`xlsx_bytes`), built from :class:`Sheet` specs
    Every sheet has a bold header row that stays in view (frozen) and repeats
    on every printed page, column widths, filter buttons over its rows, an
    optional totals row under them (outside the filter), and a print set-up a
    clerk can use as it is: landscape, one page wide, letter paper, the town,
    the workbook's title, the sheet's name and "Page n of m" on each page.
    Cells are typed: numbers are numbers, money has a dollar format, dates are
    dates (shown in the reader's own short-date form), times are local
    (the town's time zone) date-times, booleans are TRUE/FALSE, and JSON becomes
    "key: value; key: value". openpyxl builds the workbook's skeleton (styles,
    sheet settings, print titles); the rows are written straight into each
    sheet as SpreadsheetML, by :func:`rows_xml` (in
    :mod:`outfall.spreadsheet_cells`, with the sheet specs) or by DuckDB for
    the 100,000-row district sheets of the sewer register (see
    :mod:`outfall.register_export`), because openpyxl (without lxml) writes
    cell by cell, far too slowly for sheets of that size. The zip entries
    carry a fixed date, so the same rows give the same bytes.

Formula injection (OWASP "CSV injection") is neutralised in both: a text value
that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return
(:data:`FORMULA_TRIGGERS`) could be run as a formula by the spreadsheet that
opens the file.
- In a CSV such a text gets a leading apostrophe (OWASP's recommendation):
  ``=HYPERLINK("http://x")`` is written ``'=HYPERLINK("http://x")``.
- In an XLSX every text is a string cell (never a formula cell), and such a
  text also carries Excel's "quote prefix" (what Excel itself stores when one
  types an apostrophe first), so editing the cell does not turn it into a
  formula either; the text itself is kept exactly as it came.
Only text is touched: numbers stay numbers, so -2.5 in a number column is the
number -2.5. A text that merely looks like a negative number ("-5" in a text
column) is text and is neutralised like any other.

What is written with them: every output table (:mod:`outfall.table_exports`),
the sewer register (:mod:`outfall.register_export`), both gathered into the
folder ``outfall export`` writes by :mod:`outfall.exports_folder`.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import re
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

from outfall.spreadsheet_cells import (
    CHARS_PER_WIDTH,
    CUT_NOTE,
    DATE_FORMAT,
    DATETIME_FORMAT,
    FIT_WIDTH_MAX,
    FORMULA_PATTERN,
    FORMULA_TRIGGERS,
    KINDS,
    LINE_POINTS,
    MAX_LINES,
    MONEY_FORMAT,
    NOT_STATED_DAY,
    RATE_FORMAT,
    XLSX_MAX_CHARS,
    Column,
    Sheet,
    Styles,
    cell_text,
    column_letter,
    formula_like,
    line_chars,
    readable_json,
    row_height,
    rows_xml,
    sheet_title,
    text_lines,
    xml_text,
)

# The two writers, and every name of their cells (outfall.spreadsheet_cells): import them from here.
__all__ = [
    "CHARS_PER_WIDTH",
    "CSV_BOM",
    "CUT_NOTE",
    "Column",
    "DATETIME_FORMAT",
    "DATE_FORMAT",
    "EPOCH_STAMP",
    "FIT_WIDTH_MAX",
    "FIXED_ZIP_TIME",
    "FORMULA_PATTERN",
    "FORMULA_TRIGGERS",
    "KINDS",
    "LINE_POINTS",
    "MAX_LINES",
    "MONEY_FORMAT",
    "NOT_STATED_DAY",
    "RATE_FORMAT",
    "Sheet",
    "Styles",
    "XLSX_MAX_CHARS",
    "cell_text",
    "column_letter",
    "csv_bytes",
    "formula_like",
    "line_chars",
    "neutralise",
    "query_csv_bytes",
    "query_table",
    "readable_json",
    "row_height",
    "rows_xml",
    "sheet_title",
    "text_lines",
    "write_atomic",
    "write_csv",
    "xlsx_bytes",
    "xml_text",
]

# ---------------------------------------------------------------------------
# formula injection in a CSV (what is formula-like: outfall.spreadsheet_cells)


def neutralise(value: Any) -> Any:
    """A CSV cell's value made safe: formula-like text gets a leading apostrophe;
    anything else (numbers included) is returned unchanged."""
    return "'" + value if formula_like(value) else value


def _is_text_type(typ: pa.DataType) -> bool:
    return pa.types.is_string(typ) or pa.types.is_large_string(typ) or pa.types.is_string_view(typ)


def _neutralise_column(column: pa.ChunkedArray) -> pa.ChunkedArray:
    hit = pc.match_substring_regex(column, FORMULA_PATTERN)
    if not pc.any(hit).as_py():  # the common case: nothing to change, so no copy of the column's text
        return column
    return pc.if_else(hit, pc.binary_join_element_wise("'", column, ""), column)


def _csv_ready(table: pa.Table) -> pa.Table:
    """Text columns neutralised; local times written with their offset and no
    empty fraction (2026-01-02 03:00:00-05:00); everything else as it is."""
    columns = []
    for column in table.columns:
        typ = column.type
        if pa.types.is_dictionary(typ):
            column = column.cast(typ.value_type)
            typ = column.type
        if pa.types.is_nested(typ):  # lists and structs have no CSV form: JSON text
            column = pa.chunked_array(
                [
                    pa.array(
                        [None if v is None else json.dumps(v, default=str) for v in column.to_pylist()],
                        pa.string(),
                    )
                ]
            )
            typ = column.type
        if _is_text_type(typ):
            column = _neutralise_column(column)
        elif pa.types.is_timestamp(typ) and typ.tz:
            text = pc.strftime(column, format="%Y-%m-%d %H:%M:%S%Ez")
            column = pc.replace_substring_regex(text, r"\.0+([+-])", r"\1")
        elif pa.types.is_date32(typ):  # a first day the law does not state is blank, never 0001-01-01
            unstated = pc.equal(column, pa.scalar(NOT_STATED_DAY, typ))
            column = pc.if_else(unstated, pa.scalar(None, typ), column)
        columns.append(column)
    return pa.table(columns, names=table.column_names)


# ---------------------------------------------------------------------------
# the CSV writer

CSV_BOM = b"\xef\xbb\xbf"


def csv_bytes(table: pa.Table) -> bytes:
    """``table`` as a CSV file's bytes: UTF-8 with BOM, header row, text quoted
    and neutralised (see the module docstring)."""
    buffer = io.BytesIO()
    buffer.write(CSV_BOM)
    pa_csv.write_csv(_csv_ready(table), buffer)
    return buffer.getvalue()


def query_table(con: duckdb.DuckDBPyConnection, query: str, params: dict | None = None) -> pa.Table:
    relation = con.sql(query, params=params) if params else con.sql(query)
    return relation.to_arrow_table()


def query_csv_bytes(con: duckdb.DuckDBPyConnection, query: str, params: dict | None = None) -> bytes:
    """A query's result as a CSV file's bytes (:func:`csv_bytes`)."""
    return csv_bytes(query_table(con, query, params))


def write_atomic(path: Path, data: bytes) -> Path:
    """Write to a temporary name, then rename: a reader never sees half a file."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return path


def write_csv(path: Path, con: duckdb.DuckDBPyConnection, query: str, params: dict | None = None) -> Path:
    return write_atomic(path, query_csv_bytes(con, query, params))


# ---------------------------------------------------------------------------
# the XLSX writer: the workbook

FIXED_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
EPOCH_STAMP = dt.datetime(2000, 1, 1)
_CORE_DATES = re.compile(rb"(<dcterms:(created|modified)[^>]*>)([^<]*)(</dcterms:\2>)")
_DIMENSION = re.compile(rb'<dimension ref="[^"]*"\s*/>')


def _header_footer_text(text: str) -> str:
    return text.replace("&", "&&")


def _style_probes(wb) -> Styles:
    """Register every style the rows use (through cells of a probe row that is
    deleted again) and return their ids."""
    from openpyxl.styles import Alignment, Border, Font, Side

    ws = wb.worksheets[0]
    top = Alignment(vertical="top")
    wrap = Alignment(vertical="top", wrap_text=True)
    bold = Font(name="Calibri", size=11, family=2, bold=True)
    line = Border(top=Side(style="thin"), bottom=Side(style="double"))
    probes = {
        "plain": dict(alignment=top),
        "quoted": dict(alignment=top, quotePrefix=True),
        "wrap": dict(alignment=wrap),
        "wrap_quoted": dict(alignment=wrap, quotePrefix=True),
        "money": dict(alignment=top, number_format=MONEY_FORMAT),
        "rate": dict(alignment=top, number_format=RATE_FORMAT),
        "date": dict(alignment=top, number_format=DATE_FORMAT),
        "datetime": dict(alignment=top, number_format=DATETIME_FORMAT),
        "total": dict(alignment=top, font=bold, border=line),
        "total_money": dict(alignment=top, font=bold, border=line, number_format=MONEY_FORMAT),
        "total_rate": dict(alignment=top, font=bold, border=line, number_format=RATE_FORMAT),
    }
    probe_row = ws.max_row + 1
    ids = {}
    for col, (name, attrs) in enumerate(probes.items(), start=1):
        cell = ws.cell(row=probe_row, column=col, value=0)
        for attr, value in attrs.items():
            setattr(cell, attr, value)
        ids[name] = cell.style_id
    ws.delete_rows(probe_row)
    return Styles(**ids)


def _prepare_sheet(wb, sheet: Sheet, town: str, title: str) -> None:
    from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
    from openpyxl.worksheet.properties import PageSetupProperties

    ws = wb.create_sheet(sheet.title)
    header_font = Font(name="Calibri", size=11, family=2, bold=True)
    header_fill = PatternFill("solid", start_color="DDE3EA", end_color="DDE3EA")
    header_align = Alignment(vertical="center", wrap_text=True)
    header_border = Border(bottom=Side(style="thin"))
    for i, column in enumerate(sheet.columns, start=1):
        cell = ws.cell(row=1, column=i, value=column.header)
        cell.data_type = "s"  # a header is text, whatever it begins with
        cell.font, cell.fill, cell.alignment, cell.border = (
            header_font,
            header_fill,
            header_align,
            header_border,
        )
        ws.column_dimensions[column_letter(i)].width = sheet.widths()[i - 1]
    header_lines = max(
        (text_lines(c.header, line_chars(w)) for c, w in zip(sheet.columns, sheet.widths())), default=1
    )
    if header_lines > 1:
        ws.row_dimensions[1].height = LINE_POINTS * header_lines
    last_col = column_letter(max(1, len(sheet.columns)))
    n = sheet.data_rows()
    ws.freeze_panes = "A2"
    if sheet.autofilter and sheet.columns:
        ws.auto_filter.ref = f"A1:{last_col}{n + 1}"
    ws.print_title_rows = "1:1"
    ws.page_setup.orientation = "landscape"
    ws.page_setup.paperSize = ws.PAPERSIZE_LETTER
    fit = sheet.fit_width if sheet.fit_width is not None else sum(sheet.widths()) <= FIT_WIDTH_MAX
    if fit:
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 0
        ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    else:
        ws.print_title_cols = "A:A"
    ws.print_options.gridLines = True
    ws.page_margins.left = ws.page_margins.right = 0.4
    ws.page_margins.top = ws.page_margins.bottom = 0.6
    ws.page_margins.header = ws.page_margins.footer = 0.3
    if town:
        ws.oddHeader.left.text = _header_footer_text(town)
    ws.oddHeader.center.text = "&A"  # the sheet's name
    ws.oddHeader.right.text = _header_footer_text(title)
    ws.oddFooter.left.text = _header_footer_text(f"{town} - {title}" if town else title)
    ws.oddFooter.right.text = "Page &P of &N"


def xlsx_bytes(
    sheets: Sequence[Sheet],
    *,
    title: str,
    town: str = "",
    stamp: dt.datetime | None = None,
    shared_strings: Callable[[int], tuple[list[str], Callable[[], None]]] | None = None,
) -> bytes:
    """A workbook of ``sheets`` (see the module docstring). ``stamp`` (UTC,
    naive or aware) is the document's date (default: a fixed date), so the same
    sheets give the same bytes. ``shared_strings``, for sheets whose XML refers
    to shared strings: called with the index the first of them gets, it
    returns the texts and a function to call when the rows are written."""
    if not sheets:
        raise ValueError("a workbook needs at least one sheet")
    if stamp is not None and stamp.tzinfo is not None:
        stamp = stamp.astimezone(dt.UTC).replace(tzinfo=None)
    stamp = (stamp or EPOCH_STAMP).replace(microsecond=0)
    template, styles = _skeleton(sheets, title, town, stamp)
    iso = stamp.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    by_title = {s.title: s for s in sheets}

    out = io.BytesIO()
    with zipfile.ZipFile(template) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        parts = {part: by_title[t] for t, part in _sheet_parts(src).items() if t in by_title}
        names = src.namelist()
        had_sst = _SST_PART in names
        existing = src.read(_SST_PART) if had_sst else None
        base = len(re.findall(rb"<si[ >]", existing)) if existing else 0
        strings, done = shared_strings(base) if shared_strings else ([], lambda: None)

        def put(name: str, data: bytes, level: int = 6) -> None:
            entry = zipfile.ZipInfo(name, date_time=FIXED_ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            dst.writestr(entry, data, compresslevel=level)

        try:
            for name in names:
                data = src.read(name)
                if name in parts:
                    sheet = parts[name]
                    put(name, _fill_sheet(data, sheet, styles), level=1 if sheet.data_rows() > 20_000 else 6)
                    continue
                put(name, _other_part(name, data, existing, strings, iso))
            if not had_sst and strings:
                put(_SST_PART, _shared_strings(None, strings))
        finally:
            done()
    return out.getvalue()


def _other_part(name: str, data: bytes, existing: bytes | None, strings: list[str], iso: bytes) -> bytes:
    """A part of the skeleton other than a sheet's, as the workbook keeps it: the shared strings
    with ``strings`` appended (``existing``: the skeleton's own, if it had any; else the part is
    declared), the document dated ``iso``."""
    if name == _SST_PART:
        return _shared_strings(existing, strings)
    if name == "docProps/core.xml":
        return _CORE_DATES.sub(lambda m: m.group(1) + iso + m.group(4), data)
    if existing is None and strings and name == "[Content_Types].xml":
        return data.replace(
            b"</Types>",
            f'<Override PartName="/{_SST_PART}" ContentType="{_SST_TYPE}"/></Types>'.encode(),
        )
    if existing is None and strings and name == "xl/_rels/workbook.xml.rels":
        return data.replace(
            b"</Relationships>",
            f'<Relationship Type="{_SST_REL}" '
            f'Target="sharedStrings.xml" Id="rIdOutfallStrings"/>'
            f"</Relationships>".encode(),
        )
    return data


def _skeleton(
    sheets: Sequence[Sheet], title: str, town: str, stamp: dt.datetime
) -> tuple[io.BytesIO, Styles]:
    """The workbook without its rows, as openpyxl saves it (styles, sheet settings, print titles,
    properties dated ``stamp``), and the styles its cells are to use."""
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for sheet in sheets:
        _prepare_sheet(wb, sheet, town, title)
    styles = _style_probes(wb)
    wb.properties.created = stamp
    wb.properties.creator = "Outfall"
    wb.properties.title = title
    template = io.BytesIO()
    wb.save(template)
    return template, styles


def _fill_sheet(xml: bytes, sheet: Sheet, styles: Styles) -> bytes:
    """The sheet's part with its rows (and totals row) after the header row."""
    if sheet.xml_rows is not None:
        n, body = sheet.xml_rows(styles, 2)
        if n != sheet.row_count:
            raise RuntimeError(f"sheet {sheet.title}: {n} rows written, {sheet.row_count} announced")
        body = body if isinstance(body, bytes) else body.encode("utf-8")
    else:
        n, text = rows_xml(sheet.columns, sheet.rows, styles, 2, widths=sheet.widths())
        body = text.encode("utf-8")
    last_row = n + 1
    if sheet.totals is not None:
        over = (2, n + 1) if sheet.subtotals and n > 0 else None
        _, text = rows_xml(
            sheet.columns,
            [sheet.totals],
            styles,
            n + 2,
            total=True,
            widths=sheet.widths(),
            subtotal_rows=over,
        )
        body += text.encode("utf-8")
        last_row += 1
    end = xml.index(b"</sheetData>")
    last = f"{column_letter(max(1, len(sheet.columns)))}{last_row}".encode()
    head = _DIMENSION.sub(b'<dimension ref="A1:' + last + b'"/>', xml[:end], count=1)
    return b"".join((head, body, xml[end:]))


_SST_PART = "xl/sharedStrings.xml"
_SST_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
_SST_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"
_SST_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def _si(text: str) -> str:
    space = ' xml:space="preserve"' if text != text.strip() else ""
    return f"<si><t{space}>{xml_text(text)}</t></si>"


def _shared_strings(existing: bytes | None, strings: list[str]) -> bytes:
    """The shared-strings part with ``strings`` appended."""
    added = "".join(_si(t) for t in strings).encode("utf-8")
    if existing is None:
        n = len(strings)
        return (
            (
                f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="{_SST_NS}" '
                f'count="{n}" uniqueCount="{n}">'
            ).encode()
            + added
            + b"</sst>"
        )
    base = len(re.findall(rb"<si[ >]", existing))
    total = str(base + len(strings)).encode()
    head, _, _ = existing.rpartition(b"</sst>")
    head = re.sub(rb'\s(?:count|uniqueCount)="\d+"', b"", head, count=2)
    head = head.replace(b"<sst ", b'<sst count="' + total + b'" uniqueCount="' + total + b'" ', 1)
    return head + added + b"</sst>"


def _sheet_parts(package: zipfile.ZipFile) -> dict[str, str]:
    """Sheet title -> its part name in the package (via workbook.xml and its rels)."""
    workbook = package.read("xl/workbook.xml").decode("utf-8")
    rels = package.read("xl/_rels/workbook.xml.rels").decode("utf-8")
    targets = {}
    for rel in re.finditer(r"<Relationship\b[^>]*>", rels):
        tag = rel.group(0)
        rid, target = re.search(r'Id="([^"]+)"', tag), re.search(r'Target="([^"]+)"', tag)
        if rid and target:
            t = target.group(1)
            targets[rid.group(1)] = t.lstrip("/") if t.startswith("/") else f"xl/{t}"
    parts = {}
    for sheet in re.finditer(r"<sheet\b[^>]*>", workbook):
        tag = sheet.group(0)
        name = re.search(r'name="([^"]+)"', tag)
        rid = re.search(r'r:id="([^"]+)"', tag) or re.search(r'\bid="([^"]+)"', tag)
        if name and rid and rid.group(1) in targets:
            title = (
                name.group(1)
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", '"')
                .replace("&apos;", "'")
                .replace("&amp;", "&")
            )
            parts[title] = targets[rid.group(1)]
    return parts
