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
    sheet as SpreadsheetML, by :func:`rows_xml` here or by DuckDB for the
    100,000-row district sheets of the sewer register (see
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
import math
import os
import re
import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

from outfall.rules import local_timezone

# ---------------------------------------------------------------------------
# formula injection

FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
# The same test as a regular expression (RE2 and Python syntax): DuckDB's
# regexp_matches and Arrow's match_substring_regex take it as a bind value.
FORMULA_PATTERN = r"^[=+\-@\t\r]"


def formula_like(value: Any) -> bool:
    """True for a text a spreadsheet could read as a formula."""
    return isinstance(value, str) and value.startswith(FORMULA_TRIGGERS)


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


#: The day the rules' tables write for a first day the law does not state
#: (``outfall.rules.dated.OPEN_START``): a blank cell in every export, never the year 1.
NOT_STATED_DAY = dt.date.min


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
# the XLSX writer: sheet specs

KINDS = ("text", "int", "number", "money", "rate", "date", "datetime", "bool", "json", "auto")
MONEY_FORMAT = '"$"#,##0.00'
RATE_FORMAT = '"$"#,##0.00####'
DATE_FORMAT = "mm-dd-yy"  # built-in format 14: the reader's own short date (11/30/2026 in the US)
DATETIME_FORMAT = "m/d/yy h:mm"  # built-in format 22: the reader's short date and time
XLSX_MAX_CHARS = 32_767  # Excel's limit on the text of one cell
# Row heights: neither Excel nor LibreOffice reliably grows a row for wrapped
# text in a file it opens, so rows with wrapped text get a height from their
# line count. A column width counts digit widths of the default font (Calibri
# 11); ordinary text fits about 1.15 characters per unit. 15 points a line;
# Excel's tallest row is 409 points.
CHARS_PER_WIDTH = 1.15
LINE_POINTS = 15
MAX_LINES = 27
# Wider than this (in character widths), a sheet printed one page wide would
# shrink its text below about 6 points on letter paper: it prints at full size
# across pages instead, its first column repeated on each.
FIT_WIDTH_MAX = 260
CUT_NOTE = " [cut here: a cell holds at most 32,767 characters; the CSV has the whole text]"


@dataclass(frozen=True)
class Column:
    """One column of a sheet: its header, the kind of its values, its width
    (characters; None: from the header and the values) and whether long text
    wraps."""

    header: str
    kind: str = "text"
    width: float | None = None
    wrap: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown column kind {self.kind!r}")


@dataclass
class Sheet:
    """A sheet: header row, then rows (Python values, one tuple a row, in the
    columns' order) or ``xml_rows``, SpreadsheetML built elsewhere: called
    with the workbook's :class:`Styles` and the first row number, it returns
    ``(rows, xml)`` and must return exactly ``row_count`` rows. ``totals`` is
    one more row under the data, in bold, outside the filter; with ``subtotals``
    each number in it is written as the formula ``SUBTOTAL(9, <its column's
    rows>)`` (the sum of the rows a filter shows) with the given value cached,
    so the total follows a corrected row and a reader that does not recalculate
    still shows it. The given value must be that sum."""

    title: str
    columns: Sequence[Column]
    rows: Sequence[Sequence[Any]] = ()
    xml_rows: Callable[[Styles, int], tuple[int, bytes]] | None = None
    row_count: int | None = None
    totals: Sequence[Any] | None = None
    subtotals: bool = True  # the totals row's numbers are SUBTOTAL(9, ...) formulas, values cached
    autofilter: bool = True
    fit_width: bool | None = None  # print one page wide (None: when the columns are not too wide to read)
    _widths: list[float] | None = field(default=None, repr=False)

    def data_rows(self) -> int:
        return self.row_count if self.xml_rows is not None else len(self.rows)

    def widths(self) -> list[float]:
        """Each column's width: given, or from its header and values."""
        if self._widths is None:
            self._widths = [_auto_width(c, self.rows, i) for i, c in enumerate(self.columns)]
        return self._widths


@dataclass(frozen=True)
class Styles:
    """Style ids (cellXfs indexes) of the workbook, for rows written as XML."""

    plain: int
    quoted: int
    wrap: int
    wrap_quoted: int
    money: int
    rate: int
    date: int
    datetime: int
    total: int
    total_money: int
    total_rate: int

    def text(self, wrap: bool, quoted: bool) -> int:
        if wrap:
            return self.wrap_quoted if quoted else self.wrap
        return self.quoted if quoted else self.plain


def column_letter(index: int) -> str:
    """1 -> A, 27 -> AA."""
    letters = ""
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def sheet_title(name: str, taken: set[str]) -> str:
    """A valid, unique (case-insensitively) sheet title for ``name``; adds it to ``taken``."""
    title = re.sub(r"[\[\]:*?/\\]", "_", str(name)).strip("'")[:31] or "sheet"
    base, n = title, 2
    while title.lower() in taken:
        suffix = f" ({n})"
        title = base[: 31 - len(suffix)] + suffix
        n += 1
    taken.add(title.lower())
    return title


# ---------------------------------------------------------------------------
# cells as SpreadsheetML

_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_EPOCH_DATE = dt.date(1899, 12, 30)
_EPOCH = dt.datetime(1899, 12, 30)


def xml_text(text: str) -> str:
    """Text escaped for an XML element (characters XML cannot hold dropped; a
    carriage return kept as a character reference)."""
    if _XML_ILLEGAL.search(text):
        text = _XML_ILLEGAL.sub("", text)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("\r", "&#13;") if "\r" in text else text


def line_chars(width: float) -> int:
    """About how many characters of text fit on one line of a column this wide."""
    return max(4, int(width * CHARS_PER_WIDTH))


def text_lines(text: str, chars: int) -> int:
    """Lines ``text`` takes when wrapped at word boundaries to ``chars`` a line
    (at most MAX_LINES); a word longer than a line is broken."""
    if len(text) <= chars and "\n" not in text:
        return 1
    lines = 0
    for paragraph in text.split("\n"):
        n, used = 1, 0
        if len(paragraph) > chars:
            for word in paragraph.split():
                size = len(word)
                if used:
                    if used + 1 + size <= chars:
                        used += 1 + size
                        continue
                    n += 1
                while size > chars:
                    n += 1
                    size -= chars
                used = size
        lines += n
        if lines >= MAX_LINES:
            return MAX_LINES
    return lines


def row_height(lines: int) -> str:
    """The attributes that give a row ``lines`` lines of height ('' for one line)."""
    return f' ht="{LINE_POINTS * min(lines, MAX_LINES)}" customHeight="1"' if lines > 1 else ""


def cell_text(value: Any) -> str:
    """What a cell shows for a value, as text (also used for widths)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, dt.datetime):
        return value.strftime("%m/%d/%Y %H:%M")
    if isinstance(value, dt.date):
        return value.strftime("%m/%d/%Y")
    if isinstance(value, Decimal):
        return f"${value:,.2f}"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def readable_json(text: str) -> str | None:
    """JSON text as words ("key: value; key: value", a list's items on their
    own lines), or None when ``text`` is not a JSON object or list."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "[{":
        return None
    try:
        data = json.loads(stripped)
    except ValueError:
        return None
    if not isinstance(data, (dict, list)):
        return None
    return _readable(data, top=True)


def _readable(value: Any, top: bool = False) -> str:
    if isinstance(value, dict):
        parts = [
            f"{str(k).replace('_', ' ')}: {_readable(v)}"
            for k, v in value.items()
            if v is not None and v != "" and v != [] and v != {}
        ]
        text = "; ".join(parts)
        return text if top else f"({text})"
    if isinstance(value, list):
        items = [_readable(v, top=top) for v in value]
        return ("\n" if top and any(isinstance(v, dict) for v in value) else ", ").join(items)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _localize(value: dt.datetime) -> dt.datetime:
    if value.tzinfo is not None:
        from zoneinfo import ZoneInfo

        value = value.astimezone(ZoneInfo(local_timezone())).replace(tzinfo=None)
    return value


def _number(value: Any) -> str | None:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        return None if not value.is_finite() else format(value, "f")
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else None
    return None


class _CellWriter:
    """Turns Python values into <c> elements for one sheet's columns."""

    def __init__(
        self,
        columns: Sequence[Column],
        styles: Styles,
        total: bool = False,
        widths: Sequence[float] | None = None,
        subtotal_rows: tuple[int, int] | None = None,
    ):
        self.columns = columns
        self.subtotal_rows = subtotal_rows if total else None  # (first, last) data row a total sums
        self.letters = [column_letter(i) for i in range(1, len(columns) + 1)]
        self.styles = styles
        self.total = total
        self.chars = {
            id(c): line_chars(w) for c, w in zip(columns, widths or [c.width or 10 for c in columns])
        }
        self.lines = 1  # the tallest wrapped cell of the row being written
        self._fast: list[Callable[[str, Any], str]] | None = None

    def text(self, ref: str, text: str, wrap: bool, column: Column | None = None) -> str:
        if len(text) > XLSX_MAX_CHARS:
            text = text[: XLSX_MAX_CHARS - len(CUT_NOTE)] + CUT_NOTE
        wrap = wrap or "\n" in text
        if wrap and column is not None:
            self.lines = max(self.lines, text_lines(text, self.chars[id(column)]))
        style = self.styles.total if self.total else self.styles.text(wrap, formula_like(text))
        space = ' xml:space="preserve"' if text[:1].isspace() or text[-1:].isspace() else ""
        return f'<c r="{ref}" s="{style}" t="inlineStr"><is><t{space}>{xml_text(text)}</t></is></c>'

    def number(self, ref: str, text: str, style: int | None) -> str:
        s = f' s="{style}"' if style is not None else ""
        return f'<c r="{ref}"{s}><v>{text}</v></c>'

    def cell(self, ref: str, column: Column, value: Any) -> str:
        if value is None:
            return ""
        kind = column.kind
        if kind == "auto":
            kind = _kind_of(value)
        st = self.styles
        if kind in ("text", "json") or isinstance(value, str):
            text = value if isinstance(value, str) else cell_text(value)
            if kind == "json" or (kind == "text" and text[:1] in "[{"):
                readable = readable_json(text)
                if readable:
                    return self.text(ref, readable, True, column)
            return self.text(ref, text, column.wrap, column)
        if kind == "bool" or isinstance(value, bool):
            s = f' s="{st.total}"' if self.total else f' s="{st.plain}"'
            return f'<c r="{ref}"{s} t="b"><v>{1 if value else 0}</v></c>'
        if kind in ("date", "datetime") or isinstance(value, (dt.date, dt.datetime)):
            if isinstance(value, dt.datetime):
                local = _localize(value)
                serial = (local - _EPOCH).total_seconds() / 86400
                return self.number(ref, repr(serial), st.datetime)
            if isinstance(value, dt.date):
                if value == NOT_STATED_DAY:
                    return ""
                return self.number(ref, str((value - _EPOCH_DATE).days), st.date)
            return self.text(ref, cell_text(value), column.wrap, column)
        number = _number(value)
        if number is None:
            return (
                ""
                if isinstance(value, (float, Decimal))
                else self.text(ref, cell_text(value), column.wrap, column)
            )
        if self.subtotal_rows is not None:
            return self.subtotal(
                ref, number, {"money": st.total_money, "rate": st.total_rate}.get(kind, st.total)
            )
        if kind == "money":
            return self.number(ref, number, st.total_money if self.total else st.money)
        if kind == "rate":
            return self.number(ref, number, st.total_rate if self.total else st.rate)
        return self.number(ref, number, st.total if self.total else st.plain)

    def subtotal(self, ref: str, number: str, style: int) -> str:
        """A total as ``SUBTOTAL(9, <column><first>:<column><last>)`` with its value cached
        (``<v>``): Excel and LibreOffice recalculate it when a row changes, and what does not
        recalculate (a previewer, openpyxl's data_only) shows the cached value."""
        letter = ref.rstrip("0123456789")
        first, last = self.subtotal_rows
        formula = f"SUBTOTAL(9,{letter}{first}:{letter}{last})"
        return f'<c r="{ref}" s="{style}"><f>{formula}</f><v>{number}</v></c>'

    def fast(self, column: Column) -> Callable[[str, Any], str]:
        """The cell function for one column: the common value of its kind
        written directly, anything else through :meth:`cell`."""
        generic = self.cell
        st = self.styles
        if self.total or column.kind in ("auto", "json"):
            return lambda ref, value: generic(ref, column, value)
        if column.kind in ("int", "number"):
            plain = st.plain

            def number(ref: str, value: Any) -> str:
                if type(value) is int:
                    return f'<c r="{ref}" s="{plain}"><v>{value}</v></c>'
                if type(value) is float and math.isfinite(value):
                    return f'<c r="{ref}" s="{plain}"><v>{value!r}</v></c>'
                return generic(ref, column, value)

            return number
        if column.kind in ("money", "rate"):
            style = st.money if column.kind == "money" else st.rate

            def money(ref: str, value: Any) -> str:
                if type(value) is Decimal and value.is_finite():
                    return f'<c r="{ref}" s="{style}"><v>{value:f}</v></c>'
                return generic(ref, column, value)

            return money
        if column.kind == "text":
            style = st.wrap if column.wrap else st.plain
            chars = self.chars[id(column)]

            def text(ref: str, value: Any) -> str:
                if (
                    type(value) is str
                    and value
                    and not _SPECIAL_START.match(value)
                    and not value[-1].isspace()
                    and not _NEEDS_ESCAPE.search(value)
                    and len(value) <= XLSX_MAX_CHARS
                ):
                    if column.wrap and len(value) > chars:
                        self.lines = max(self.lines, text_lines(value, chars))
                    return f'<c r="{ref}" s="{style}" t="inlineStr"><is><t>{value}</t></is></c>'
                return generic(ref, column, value)

            return text
        if column.kind == "date":
            day_style = st.date

            def date(ref: str, value: Any) -> str:
                if value == NOT_STATED_DAY:
                    return ""
                if type(value) is dt.date:
                    return f'<c r="{ref}" s="{day_style}"><v>{(value - _EPOCH_DATE).days}</v></c>'
                return generic(ref, column, value)

            return date
        return lambda ref, value: generic(ref, column, value)

    def row(self, r: int, values: Sequence[Any]) -> str:
        if self._fast is None:
            self._fast = [self.fast(c) for c in self.columns]
        self.lines = 1
        cells = "".join(
            f(f"{letter}{r}", value)
            for f, letter, value in zip(self._fast, self.letters, values)
            if value is not None
        )
        return f'<row r="{r}"{row_height(self.lines)}>{cells}</row>'


# A text that needs more than the plain path: formula-like, JSON, leading space;
# or characters to escape or drop, or a line break (wrapped).
_SPECIAL_START = re.compile(r"[=+\-@\t\r\[{\s]")
_NEEDS_ESCAPE = re.compile("[&<>\n\r\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, Decimal):
        return "money"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, dt.datetime):
        return "datetime"
    if isinstance(value, dt.date):
        return "date"
    return "text"


def rows_xml(
    columns: Sequence[Column],
    rows: Iterable[Sequence[Any]],
    styles: Styles,
    first_row: int,
    total: bool = False,
    widths: Sequence[float] | None = None,
    subtotal_rows: tuple[int, int] | None = None,
) -> tuple[int, str]:
    """(number of rows, their <row> elements) from row ``first_row`` on; a row
    with wrapped text is as tall as its tallest cell's lines. ``subtotal_rows``
    (a totals row): its numbers are SUBTOTAL formulas over those rows."""
    writer = _CellWriter(columns, styles, total=total, widths=widths, subtotal_rows=subtotal_rows)
    parts = [writer.row(r, values) for r, values in enumerate(rows, start=first_row)]
    return len(parts), "".join(parts)


def _auto_width(column: Column, rows: Sequence[Sequence[Any]], index: int) -> float:
    if column.width is not None:
        return column.width
    fixed = {"date": 11, "datetime": 16, "bool": 8, "money": 14, "rate": 14}
    longest = max((len(w) for w in column.header.split()), default=4)
    if column.kind in fixed:
        return max(fixed[column.kind], longest + 2)
    sample = rows[:500]
    values = [cell_text(r[index]) for r in sample if index < len(r) and r[index] is not None]
    if column.kind in ("json", "text"):
        values = [max(v.split("\n"), key=len) for v in values]
    widest = max((len(v) for v in values), default=0)
    return float(min(60, max(8, longest + 2, widest + 2)))


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
    import openpyxl

    if not sheets:
        raise ValueError("a workbook needs at least one sheet")
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for sheet in sheets:
        _prepare_sheet(wb, sheet, town, title)
    styles = _style_probes(wb)
    if stamp is not None and stamp.tzinfo is not None:
        stamp = stamp.astimezone(dt.UTC).replace(tzinfo=None)
    stamp = (stamp or EPOCH_STAMP).replace(microsecond=0)
    wb.properties.created = stamp
    wb.properties.creator = "Outfall"
    wb.properties.title = title
    template = io.BytesIO()
    wb.save(template)
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
                if name == _SST_PART:
                    data = _shared_strings(existing, strings)
                elif name == "docProps/core.xml":
                    data = _CORE_DATES.sub(lambda m: m.group(1) + iso + m.group(4), data)
                elif name == "[Content_Types].xml" and not had_sst and strings:
                    data = data.replace(
                        b"</Types>",
                        f'<Override PartName="/{_SST_PART}" ContentType="{_SST_TYPE}"/></Types>'.encode(),
                    )
                elif name == "xl/_rels/workbook.xml.rels" and not had_sst and strings:
                    data = data.replace(
                        b"</Relationships>",
                        f'<Relationship Type="{_SST_REL}" '
                        f'Target="sharedStrings.xml" Id="rIdOutfallStrings"/>'
                        f"</Relationships>".encode(),
                    )
                put(name, data)
            if not had_sst and strings:
                put(_SST_PART, _shared_strings(None, strings))
        finally:
            done()
    return out.getvalue()


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
