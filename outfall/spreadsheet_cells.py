"""The cells of Outfall's spreadsheets: what a spreadsheet could run as a formula, the sheet specs
(:class:`Column`, :class:`Sheet`, :class:`Styles`) and rows as SpreadsheetML (:func:`rows_xml`).

The writers of :mod:`outfall.spreadsheets` (CSV and XLSX) build on these, and that module names every
one of them again: import them from there. See its docstring for what a cell of each kind becomes.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

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


#: The day the rules' tables write for a first day the law does not state
#: (``outfall.rules.dated.OPEN_START``): a blank cell in every export, never the year 1.
NOT_STATED_DAY = dt.date.min


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
