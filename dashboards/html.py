"""Shared pieces of every dashboard page: escaping, the page shell, tables,
KPI cards, notes and Plotly figures embedded as JSON and drawn by the page.

Everything here is pure: values in, HTML text out. Text that may come from
input files (names, addresses, notes, reasons, raw rows) always goes through
``esc``; figures carry their text inside JSON that is made safe for a
``<script>`` element (``script_json``) and Plotly draws it as text, not HTML.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import math
import os
import re
import zoneinfo
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from outfall.letters import css_string
from outfall.rules import local_timezone
from outfall.rules.judged import Judged

PLOTLY_JS = "plotly.min.js"  # written once beside the pages (include_plotlyjs="directory" layout)

PAGES = (  # (file, menu label: a person's page is named for its person, role_name)
    ("index.html", "Overview"),
    ("sewer.html", "superintendent"),
    ("stormwater.html", "stormwater_officer"),
    ("billing.html", "clerk"),
    ("quarantine.html", "Quarantined rows"),
)

# One palette for every page.
COLORS = {
    "result": "#2563eb",
    "nondetect": "#6b7280",
    "violation": "#dc2626",
    "inconclusive": "#d97706",
    "limit": "#991b1b",
    "trend": "#94a3b8",
    "flow": "#2563eb",
    "slug": "#dc2626",
    "slug_fill": "rgba(220,38,38,0.13)",
    "gap_fill": "rgba(107,114,128,0.14)",
    "baseline": "#047857",
    "threshold": "#b45309",
    "rain": "#93c5fd",
    "storm": "#1d4ed8",
    "late": "#d97706",
    "overdue": "#dc2626",
    "inspection": "#047857",
    "active_fill": "rgba(16,185,129,0.07)",
    "bond": "#1e3a8a",
    "om": "#3b82f6",
    "street_lateral": "#10b981",
    "house_lateral": "#f59e0b",
    "previous": "#cbd5e1",
    "current": "#2563eb",
}

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif"


# --------------------------------------------------------------------------- text


@dataclass(kw_only=True)
class PageData:
    """What every page's data carries (keyword arguments): the day judged, when the page was made, whom it
    is about (printed atop each paper page) and which tables exist (``present``)."""

    as_of: dt.date
    generated_at: dt.datetime | None = None
    town: str = ""
    laws: dict[str, str] = field(default_factory=dict)
    present: dict[str, bool] = field(default_factory=dict)
    # what the rules judge: every statement of "none" goes through it (contract 8.6; Judged(): everything)
    judged: Judged = field(default_factory=Judged)
    municipality: str = "municipality"  # the kind of the page's municipality ("Town", "City": its rules)


#: How a page names a law the rules do not name (``law_names`` of the rules files).
LAW_WORDS = {
    "sewer_use": "the sewer use law",
    "sewer_rates": "the sewer rate schedule",
    "sewer_penalty": "the penalty section of the sewer use law",
    "sewer_district": "the sewer district",
    "stormwater": "the stormwater law",
    "illicit_discharges": "the illicit discharge law",
    "inspection_fees": "the inspection fee law",
}


def law_cited(laws: dict[str, str] | None, name: str) -> str:
    """How a page cites the law ``name``: the rules' short name (``law_names``), else plain words."""
    return (laws or {}).get(name) or LAW_WORDS.get(name, name.replace("_", " "))


#: Each person's page, and the name of the official in ``law_names`` whose title names the person.
ROLES = {
    "superintendent": ("sewer.html", "sewer_administrator"),
    "stormwater_officer": ("stormwater.html", "stormwater_officer"),
    "clerk": ("billing.html", None),
}
#: A person's name where the rules name no official (a new town's rules before they are filled in).
ROLE_WORDS = {
    "superintendent": "Sewer use administrator",
    "stormwater_officer": "Stormwater officer",
    "clerk": "Clerk",
}


def noun(n: Any, one: str, many: str | None = None) -> str:
    """The noun that follows a count: 'inspection' after 1, 'inspections' after 0 or 2 (``many``: when not
    the singular with an s: 'notices of violation')."""
    try:
        single = int(n) == 1
    except (TypeError, ValueError):
        single = False
    return one if single else (many or one + "s")


def role_name(laws: dict[str, str] | None, person: str) -> str:
    """The one name of a person on every page: the official the rules name (``law_names``), else plain
    words."""
    law = ROLES.get(person, ("", None))[1]
    return (laws or {}).get(law or "") or ROLE_WORDS.get(person, person.replace("_", " ").capitalize())


def as_frame(value: pd.DataFrame | None) -> pd.DataFrame:
    """The frame a page was given, or an empty one where it was given none."""
    return value if value is not None else pd.DataFrame()


def frames(data: Any, *names: str) -> list[pd.DataFrame]:
    """``as_frame`` of each named field of a page's data, in order."""
    return [as_frame(getattr(data, name)) for name in names]


def is_missing(value: Any) -> bool:
    if value is None or value is pd.NaT:
        return True
    if isinstance(value, str):  # the common cases first: a table of 2,000 rows asks 20,000 times
        return False
    if isinstance(value, float):
        return value != value
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def esc(value: Any) -> str:
    """HTML-escaped text of a value; blank for None/NaN/NaT."""
    if is_missing(value):
        return ""
    return html.escape(str(value), quote=True)


def fmt_date(value: Any) -> str:
    if is_missing(value):
        return ""
    if isinstance(value, str):
        return value[:10]
    if isinstance(value, (pd.Timestamp, dt.datetime)):
        return value.strftime("%Y-%m-%d")
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def fmt_datetime(value: Any) -> str:
    """Local wall-clock time, minutes (timestamps are shown in the town's time zone)."""
    if is_missing(value):
        return ""
    if isinstance(value, dt.datetime) and not getattr(value, "nanosecond", 0):
        # a datetime or Timestamp (whole microseconds, as the warehouse keeps them) converted as a
        # Python datetime: a tenth of the time of a Timestamp's conversion
        plain = value.to_pydatetime() if isinstance(value, pd.Timestamp) else value
        if plain.tzinfo is not None:
            plain = plain.astimezone(zoneinfo.ZoneInfo(local_timezone()))
        return plain.strftime("%Y-%m-%d %H:%M")
    ts = pd.Timestamp(value)
    if ts.tzinfo is not None:
        ts = ts.tz_convert(local_timezone())
    return ts.strftime("%Y-%m-%d %H:%M")


def fmt_num(value: Any, digits: int = 0) -> str:
    if is_missing(value):
        return ""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    return f"{number:,.{digits}f}"


def fmt_usd(value: Any) -> str:
    if is_missing(value):
        return ""
    number = float(value)
    sign = "-" if number < 0 else ""
    return f"{sign}${abs(number):,.2f}"


def fmt_signed_usd(value: Any) -> str:
    if is_missing(value):
        return ""
    number = float(value)
    return ("+" if number > 0 else "") + fmt_usd(number)


def fmt_pct(value: Any, digits: int = 1) -> str:
    if is_missing(value):
        return ""
    number = float(value)
    return ("+" if number > 0 else "") + f"{number:.{digits}f}%"


def short_rule(rule: Any, limit: int = 70) -> str:
    """A short label of a citation for chart annotations (the full text goes in hovers).

    "<Town> Code ch. 12 § 4, discharges ..., (a): BOD in excess of 200 mg/l"
    -> "<Town> ch. 12 § 4, discharges ..., (a)".
    """
    if is_missing(rule):
        return ""
    text = str(rule).strip().replace(" Code ", " ", 1)
    head = text.split(":", 1)[0].strip()
    if len(head) > limit:
        parts = head.split(", ")
        short = f"{parts[0]}, …, {parts[-1]}" if len(parts) >= 3 else ""
        if short and len(short) <= limit:
            return short
        cut = head[: limit - 1]
        if " " in cut and not head[limit - 1].isspace():  # at a word's end, not inside one
            cut = cut[: cut.rindex(" ")]
        head = cut.rstrip(" ,;") + "…"
    return head


UNIT_WORDS = {"degF": "°F", "degC": "°C", "s.u.": "s.u.", "SU": "s.u."}


def unit_text(unit: Any) -> str:
    """A unit as a reader writes it: °F for degF, °C for degC; others as they are."""
    if is_missing(unit):
        return ""
    return UNIT_WORDS.get(str(unit), str(unit))


def units_in_words(text: Any) -> str:
    """A sentence built elsewhere with its units and roundings as a reader writes them: '160 degF' ->
    '160 °F', 'peaking at 65.177 gpm (9.8795 x baseline)' -> 'peaking at 65.2 gpm (9.9 × baseline)'."""
    if is_missing(text):
        return ""
    out = re.sub(r"(\d) deg([FC])\b", lambda m: f"{m.group(1)} °{m.group(2)}", str(text))
    out = re.sub(r"\b(\d+\.\d+) (gpm|gpd|mgd)\b", lambda m: fmt_measure(m.group(1), m.group(2)), out)
    return re.sub(r"\b(\d+(?:\.\d+)?) x baseline\b", lambda m: f"{float(m.group(1)):.1f} × baseline", out)


def fmt_measure(value: Any, unit: Any = "", *, exact: bool = False) -> str:
    """A value with its unit, rounded as a reader wants it: '8,257 gpm', '26.4 gpm', '5.49 s.u.', '150 °F'.

    ``exact``: a lab result as reported (up to three decimals, never rounded to a whole number, so a result
    of 240.01 stays above its limit of 240); otherwise a computed value (a peak, a baseline, an average)
    keeps three significant figures, and whole numbers from 100 up."""
    if is_missing(value):
        return ""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return f"{value} {unit_text(unit)}".strip()
    size = abs(number)
    if exact:
        digits = 3
    elif size >= 100 or number == 0:
        digits = 0
    else:
        digits = max(0, 2 - int(math.floor(math.log10(size))))
    text = f"{number:,.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return f"{text} {unit_text(unit)}".strip()


MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def day_words(value: Any) -> str:
    """'November 30, 2026'."""
    if is_missing(value):
        return ""
    day = pd.Timestamp(value)
    return f"{MONTH_NAMES[day.month - 1]} {day.day}, {day.year}"


def month_words(value: Any) -> str:
    """'November 2026'."""
    if is_missing(value):
        return ""
    day = pd.Timestamp(value)
    return f"{MONTH_NAMES[day.month - 1]} {day.year}"


def months_words(first: Any, last: Any) -> str:
    """The months a count covers: 'January 2025 to November 2026', 'March 2026' (one month)."""
    if is_missing(first) or is_missing(last):
        return ""
    a, b = month_words(first), month_words(last)
    return a if a == b else f"{a} to {b}"


def to_date_words(as_of: dt.date) -> str:
    """The year to the day judged: '2026 to date (January 1 to November 30)'."""
    return f"{as_of.year} to date (January 1 to {MONTH_NAMES[as_of.month - 1]} {as_of.day})"


def named(ident: Any, name: Any, href: str = "") -> str:
    """An id with its name beside it (HTML): 'IU-020 · Eastbrook Regional Treatment Plant'; the id a link
    when ``href`` is given."""
    head = f'<a href="{esc(href)}">{esc(ident)}</a>' if href else esc(ident)
    return head + (f' <span class="who">{esc(name)}</span>' if not is_missing(name) and str(name) else "")


def short_name(name: Any, width: int = 36) -> str:
    """A name short enough for a long table's column: a long name's closing remark in brackets left off,
    then cut with '…' (the whole name is in the page's summary and the subject's own section)."""
    if is_missing(name):
        return ""
    text = str(name)
    if len(text) > width and text.endswith(")") and " (" in text:
        text = text[: text.rindex(" (")]
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


class RuleNotes:
    """The rules a section cites: each cell holds the short citation and a numbered link to the full text,
    listed once at the section's end (on screen and on paper), not repeated in every row."""

    def __init__(self, prefix: str):
        self.prefix = slug(prefix)
        self.numbers: dict[str, int] = {}

    def number(self, rule: Any) -> int:
        text = " ".join(str(rule).split())
        if text not in self.numbers:
            self.numbers[text] = len(self.numbers) + 1
        return self.numbers[text]

    def cite(self, rule: Any, limit: int = 60) -> str:
        """HTML: '<Town> ch. 12 § 4, …, (a)' and its note's number."""
        if is_missing(rule) or not str(rule).strip():
            return ""
        n = self.number(rule)
        return (
            f'<span class="cite">{esc(short_rule(rule, limit))}<sup class="rule-ref"><a '
            f'href="#{self.prefix}-{n}">'
            f"[{n}]</a></sup></span>"
        )

    def col(self, key: str = "rule", label: str = "Rule", limit: int = 60) -> Col:
        return Col(key, label, html=lambda r: self.cite(r.get(key), limit))

    def mark(self, text: Any) -> str:
        """HTML: the numbered link to ``text``, listed in full at the end (a reason shared by many rows)."""
        if is_missing(text) or not str(text).strip():
            return ""
        n = self.number(text)
        return f'<sup class="rule-ref"><a href="#{self.prefix}-{n}">[{n}]</a></sup>'

    def notes(self, title: str = "The rules cited, in full") -> str:
        """The numbered texts, once each. Texts of one citation that share their words up to a colon (the
        criteria of one rule) give those words once, each text's own words numbered under them."""
        if not self.numbers:
            return ""

        def item(text: str, n: int) -> str:
            return f'<li id="{self.prefix}-{n}" value="{n}">{esc(text)}</li>'

        groups: dict[str, list[tuple[str, int]]] = {}
        for text, n in sorted(self.numbers.items(), key=lambda kv: kv[1]):
            groups.setdefault(short_rule(text, 1000), []).append((text, n))
        items = []
        for head, members in groups.items():
            shared = os.path.commonprefix([t for t, _ in members]) if len(members) > 1 else ""
            cut = shared.rfind(": ")
            if cut <= len(head):
                items += [item(t, n) for t, n in members]
                continue
            inner = "".join(item(t[cut + 2 :], n) for t, n in members)
            items.append(f'<li class="shared">{esc(shared[: cut + 1])}<ol>{inner}</ol></li>')
        return f'<div class="rule-notes"><h4>{esc(title)}</h4><ol>{"".join(items)}</ol></div>'


def slug(value: Any) -> str:
    """An HTML id fragment: letters, digits, '-' and '_' only."""
    out = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in str(value))
    return out.strip("-") or "x"


def _json_default(value: Any) -> Any:
    if isinstance(value, (pd.Timestamp, dt.datetime)):
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, dt.date):
        return value.isoformat()
    if hasattr(value, "item"):  # numpy scalars
        item = value.item()
        if isinstance(item, float) and not math.isfinite(item):
            return None
        return item
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)


def script_json(obj: Any) -> str:
    """JSON text safe inside a <script> element (no '</script>', no '<!--'); NaN is refused
    (JSON.parse would fail on it): figures carry None for gaps."""
    text = (
        obj
        if isinstance(obj, str)
        else json.dumps(
            obj, separators=(",", ":"), default=_json_default, allow_nan=False, ensure_ascii=False
        )
    )
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


# --------------------------------------------------------------------------- blocks


def note(text: str, kind: str = "info") -> str:
    """A boxed note; ``text`` is HTML (escape any data in it first)."""
    return f'<p class="note note-{kind}">{text}</p>'


def none_note(judged: Judged, duty: str, words: str, kind: str = "info") -> str:
    """A statement of none on a page, through the one helper (``Judged.none``, contract 8.6): ``words`` (plain
    text) as a note of ``kind`` where the rules judge ``duty``, else why they do not ("not judged: the rules
    of X state no ..."), in the same place. Its duty is kept out of sight, in data attributes, for tests."""
    said = judged.none(duty, words)
    shown = kind if judged.judged(duty) else "warn"
    flag = "yes" if judged.judged(duty) else "no"
    return f'<p class="note note-{shown}" data-duty="{esc(duty)}" data-judged="{flag}">{esc(said)}</p>'


def judged_kpi(judged: Judged, duty: str, card: Kpi) -> Kpi:
    """``card``, whose count of 0 reads "not judged", with the reason, where the rules do not judge ``duty``
    (contract 8.6)."""
    if card.value != "0" or judged.judged(duty):
        return card
    return Kpi(card.label, "not judged", judged.reason(duty), "warn", card.href)


def judged_nothing(
    judged: Judged, duty: str, table: str, present: dict, none: str, kind: str = "info", what: str = ""
) -> str:
    """What an empty table of ``duty``'s findings shows: why not, where the rules do not judge ``duty``; else
    "no data yet" while the step that fills it has not run (``nothing_found``), else ``none``, each through
    the one helper of "none" (``none_note``)."""
    if judged.judged(duty) and not present.get(table):
        return no_data(table, present.get(table), what)
    return none_note(judged, duty, none, kind)


def no_data(table: str, present: bool | None, what: str = "") -> str:
    """The "no data yet" note for a table that is missing (present=False) or empty, in plain words
    (the table's name is kept out of sight, in a data attribute, for tests and support)."""
    if present is False:
        why = "the step of the run that works them out has not run yet"
    else:
        why = "there are none in the data so far"
    lead = f"{esc(what[:1].upper() + what[1:])}: " if what else ""
    return (
        f'<p class="note note-empty" data-table="{esc(table)}"><strong>No data yet.</strong> {lead}{why}.</p>'
    )


@dataclass
class Kpi:
    label: str
    value: str
    detail: str = ""
    tone: str = ""  # "", "bad", "warn", "good"
    href: str = ""


def nothing_found(table: str, present: dict, none: str, kind: str = "info", what: str = "") -> str:
    """What an empty table shows: "no data yet" (``no_data``) while the step that fills it has not run or
    found nothing in the data, else ``none``, a note of ``kind``."""
    return no_data(table, present.get(table), what) if not present.get(table) else note(none, kind)


def kpis(cards: Sequence[Kpi]) -> str:
    parts = []
    for c in cards:
        inner = f'<div class="kpi-value">{esc(c.value)}</div><div class="kpi-label">{esc(c.label)}</div>' + (
            f'<div class="kpi-detail">{esc(c.detail)}</div>' if c.detail else ""
        )
        cls = f"kpi {('kpi-' + c.tone) if c.tone else ''}".strip()
        if c.href:
            parts.append(f'<a class="{cls}" href="{esc(c.href)}">{inner}</a>')
        else:
            parts.append(f'<div class="{cls}">{inner}</div>')
    return '<div class="kpis">' + "".join(parts) + "</div>"


def badge(text: str, tone: str = "") -> str:
    return f'<span class="badge{(" badge-" + tone) if tone else ""}">{esc(text)}</span>'


@dataclass
class Col:
    """A table column: the frame's column, its header, and how a cell is shown.

    ``fmt`` returns plain text (escaped here); ``html`` returns ready HTML (the
    caller escapes data in it). ``num`` right-aligns the column."""

    key: str
    label: str
    fmt: Callable[[Any], str] | None = None
    html: Callable[[pd.Series], str] | None = None
    num: bool = False
    title: str = ""
    nowrap: bool = False
    screen_only: bool = False  # left off paper (a long sentence the paper says elsewhere or in a note)
    width: str = ""  # the column's share of the table ("24%"): a long name keeps to one line


def slug_end_text(start: Any, minutes: Any, end: Any = None) -> str:
    """A slug's end as the pages show it: its start plus its duration in whole minutes (the end of the last
    high reading's interval), so that From, To and Minutes agree; the last reading's time when the duration
    is not known."""
    if is_missing(start) or is_missing(minutes):
        return fmt_datetime(end)
    return fmt_datetime(pd.Timestamp(start) + pd.Timedelta(minutes=float(minutes)))


def slug_columns() -> list[Col]:
    """The columns of a table of slug events after its user column, in the same words on every page."""

    def measure(key: str) -> Callable[[pd.Series], str]:
        return lambda r: esc(fmt_measure(r[key], r.get("unit")))

    return [
        Col("constituent", "Of"),
        Col("start_at", "From", fmt=fmt_datetime, nowrap=True),
        # the end of the last high reading's interval: From plus the minutes shown (contract 4's duration,
        # last reading minus first plus one interval), so that the two always agree
        Col(
            "end_at",
            "To",
            html=lambda r: esc(slug_end_text(r["start_at"], r["duration_min"], r["end_at"])),
            nowrap=True,
            title="The end of the last high reading's interval: the start plus the minutes",
        ),
        Col("duration_min", "Minutes", num=True, fmt=fmt_num),
        Col("peak_value", "Peak", num=True, html=measure("peak_value")),
        Col("baseline", "Usual (baseline)", num=True, html=measure("baseline")),
        Col("peak_ratio", "Peak, times the usual", num=True, fmt=lambda v: fmt_num(v, 1)),
    ]


def _th(c: Col) -> str:
    """A column's header cell: right-aligned for numbers, left off paper when screen-only, its title and
    width."""
    names = " ".join(n for n, on in (("num", c.num), ("no-print", c.screen_only)) if on)
    cls = f' class="{names}"' if names else ""
    title = f' title="{esc(c.title)}"' if c.title else ""
    width = f' style="width:{esc(c.width)}"' if c.width else ""
    return f"<th{cls}{title}{width}>{esc(c.label)}</th>"


def _column_cells(c: Col, records: list[dict]) -> list[str]:
    """The cells of one column, top to bottom, each in its ``<td>`` (the same tag all the way down)."""
    cls_td = " ".join(
        n for n, on in (("num", c.num), ("nowrap", c.nowrap), ("no-print", c.screen_only)) if on
    )
    td = f'<td class="{cls_td}">' if cls_td else "<td>"
    if c.html is not None:
        contents = [c.html(r) for r in records]
    else:
        fmt, key = c.fmt, c.key
        contents = [
            esc(fmt(v) if fmt is not None and not is_missing(v) else v) for v in (r.get(key) for r in records)
        ]
    return [f"{td}{content}</td>" for content in contents]


def _row_attrs(
    row: dict, row_class: Callable[[pd.Series], str] | None, row_id: Callable[[pd.Series], str] | None
) -> str:
    """The class and id of a row's ``<tr>`` (none when blank)."""
    attrs = ""
    if row_class is not None:
        cls = row_class(row)
        if cls:
            attrs += f' class="{esc(cls)}"'
    if row_id is not None:
        attrs += f' id="{esc(row_id(row))}"'
    return attrs


def _row_html(
    row: dict,
    row_cells: Sequence[str],
    row_class: Callable[[pd.Series], str] | None,
    row_id: Callable[[pd.Series], str] | None,
    detail: Callable[[dict], str] | None,
    width: int,
) -> str:
    """One row of a table; with ``detail``, the row and its second line kept together in their own tbody."""
    line = f"<tr{_row_attrs(row, row_class, row_id)}>{''.join(row_cells)}</tr>"
    if detail is None:
        return line
    extra = detail(row)
    if not extra:
        return f'<tbody class="pair">{line}</tbody>'
    return f'<tbody class="pair">{line}<tr class="detail"><td colspan="{width}">{extra}</td></tr></tbody>'


def table(
    frame: pd.DataFrame | None,
    cols: Sequence[Col],
    *,
    max_rows: int | None = None,
    rest: str = "",
    row_class: Callable[[pd.Series], str] | None = None,
    row_id: Callable[[pd.Series], str] | None = None,
    caption: str = "",
    empty: str = "No rows.",
    table_class: str = "",
    detail: Callable[[dict], str] | None = None,
    whole: bool = False,
) -> str:
    """An HTML table of ``frame``; every cell escaped unless the column renders HTML itself.

    ``max_rows`` shows only the first rows: then ``rest`` (plain text) must say where all of them are,
    and the page says how many there are. ``detail``: a second line under a row, across every column (HTML;
    blank for none), kept on the same paper page as its row: a long sentence there leaves the columns their
    width. ``whole``: the table is part of the page, which scrolls, not a box with its own scroll bar."""
    if max_rows is not None and not rest:
        raise ValueError("a table that shows only its first rows must say where the rest are (rest=...)")
    if frame is None or frame.empty:
        return note(esc(empty), "empty")
    shown = frame if max_rows is None else frame.head(max_rows)
    head = "".join(_th(c) for c in cols)
    # The cells a column at a time (each column's opening tag is the same all the way down), then
    # joined row by row; the rows as dicts, not a Series each (iterrows: 40 us a row; a page of 190
    # meters has thousands).
    records = shown.to_dict("records")
    cells = [_column_cells(c, records) for c in cols]
    body = [
        _row_html(row, row_cells, row_class, row_id, detail, len(cols))
        for row, row_cells in zip(records, zip(*cells) if cells else ((),) * len(records))
    ]
    more = ""
    if max_rows is not None and len(frame) > max_rows:
        more = note(esc(f"The first {max_rows:,} of {len(frame):,} rows are shown here; {rest}"), "info")
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    cls = f' class="{esc(table_class)}"' if table_class else ""
    rows_html = "".join(body) if detail is not None else f"<tbody>{''.join(body)}</tbody>"
    wrap = "table-wrap whole" if whole else "table-wrap"
    return (
        f'<div class="{wrap}"><table{cls}>{cap}<thead><tr>{head}</tr></thead>{rows_html}</table></div>{more}'
    )


def details(summary: str, body: str, cls: str = "more") -> str:
    """A short text a reader can open to see more: ``summary`` and ``body`` are HTML (escape any data in
    them first). Used for a rule's short citation with its full text one click away."""
    return f'<details class="{esc(cls)}"><summary>{summary}</summary>{body}</details>'


def cited(short: Any, full: Any) -> str:
    """A rule as its short citation, the full text one click away (``<details>``); plain text in, HTML out."""
    short_text = esc(short) or esc(short_rule(full))
    if is_missing(full) or str(full).strip() == str(short).strip():
        return short_text
    return details(short_text, f'<span class="full">{esc(full)}</span>', "rule")


def section(title: str, body: str, *, sid: str = "", lead: str = "") -> str:
    id_attr = f' id="{esc(sid)}"' if sid else ""
    lead_html = f'<p class="lead">{lead}</p>' if lead else ""
    return f"<section{id_attr}><h2>{esc(title)}</h2>{lead_html}{body}</section>"


# --------------------------------------------------------------------------- figures

# The layout defaults every figure shares, sent once per page (not per figure).
TEMPLATE: dict[str, Any] = {
    "layout": {
        "font": {"family": FONT, "size": 12, "color": "#1f2937"},
        "paper_bgcolor": "#ffffff",
        "plot_bgcolor": "#ffffff",
        "colorway": ["#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#4b5563"],
        "hovermode": "closest",
        "hoverlabel": {"font": {"family": FONT, "size": 12}, "align": "left"},
        "margin": {"l": 70, "r": 30, "t": 40, "b": 50},
        "legend": {
            "orientation": "h",
            "yanchor": "bottom",
            "y": 1.02,
            "xanchor": "left",
            "x": 0,
            "font": {"size": 11},
        },
        "xaxis": {
            "showgrid": True,
            "gridcolor": "#eef2f7",
            "linecolor": "#9ca3af",
            "showline": True,
            "ticks": "outside",
            "tickcolor": "#9ca3af",
            "zeroline": False,
            "automargin": True,
        },
        "yaxis": {
            "showgrid": True,
            "gridcolor": "#eef2f7",
            "linecolor": "#9ca3af",
            "showline": True,
            "ticks": "outside",
            "tickcolor": "#9ca3af",
            "zeroline": False,
            "automargin": True,
        },
    }
}

PLOTLY_CONFIG = {
    "displaylogo": False,
    "responsive": True,
    "scrollZoom": False,
    "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d"],
    "toImageButtonOptions": {"format": "png", "scale": 2},
}


@dataclass
class Chart:
    """A figure placed on a page: drawn by the page's script when scrolled into view."""

    chart_id: str
    figure: Any  # a dict {"data", "layout"} (dashboards.figs) or a plotly go.Figure
    title: str = ""
    caption: str = ""  # HTML (escape data first)
    height: int = 400
    click_anchor_prefix: str = ""  # a click on a point with customdata[0] = X jumps to #<prefix>X
    extra_class: str = ""
    print_height: int = 0  # on paper: drawn this tall (0: as on screen)
    printed: bool = True  # False: on screen only (the page says where the rest are)
    print_layout: dict[str, Any] = field(default_factory=dict)  # on paper: these layout changes too

    def spec(self) -> dict[str, Any]:
        fig = self.figure
        if isinstance(fig, go.Figure):
            fig.update_layout(template="none")
            data = json.loads(pio.to_json(fig, validate=False, remove_uids=True))
        else:
            data = {"data": fig.get("data", []), "layout": dict(fig.get("layout", {}))}
        layout = data.get("layout", {})
        layout.pop("template", None)
        layout["height"] = self.height
        out = {"data": data.get("data", []), "layout": layout, "config": PLOTLY_CONFIG}
        if self.click_anchor_prefix:
            out["clickAnchor"] = self.click_anchor_prefix
        return out

    def html(self) -> str:
        spec_id = f"fig-{slug(self.chart_id)}"
        title = f'<h3 class="chart-title">{esc(self.title)}</h3>' if self.title else ""
        caption = f'<p class="chart-caption">{self.caption}</p>' if self.caption else ""
        cls = f"chart {self.extra_class}".strip()
        box = (
            "chart-box"
            + ("" if self.printed else " no-print")
            + (" chart-small" if self.print_height else "")
        )
        tall = f' data-print-height="{int(self.print_height)}"' if self.print_height else ""
        if self.print_layout:
            tall += f' data-print-layout="{esc(script_json(self.print_layout))}"'
        return (
            f'<figure class="{box}">{title}<div class="{cls}" id="{spec_id}-div" data-fig="{spec_id}"{tall} '
            f'style="min-height:{int(self.height)}px"><span class="chart-wait">Chart '
            f'loading…</span></div>{caption}<script type="application/json" '
            f'id="{spec_id}">{script_json(self.spec())}</script></figure>'
        )


def local_naive(series: pd.Series) -> pd.Series:
    """Timestamps as local (the town's time zone) wall-clock times without zone, for chart axes."""
    if isinstance(series, pd.Series) and pd.api.types.is_datetime64_dtype(series.dtype):
        return series  # local wall-clock times already (what the pages' queries give)
    s = pd.to_datetime(series)
    if getattr(s.dt, "tz", None) is not None:
        s = s.dt.tz_convert(local_timezone()).dt.tz_localize(None)
    return s


def axis_times(series: pd.Series, with_time: bool = True) -> list[str]:
    """Short date strings for a Plotly date axis (smaller than the default ISO with nanoseconds)."""
    s = local_naive(series)
    fmt = "%Y-%m-%d %H:%M" if with_time else "%Y-%m-%d"
    if isinstance(s, pd.Series) and pd.api.types.is_datetime64_dtype(s.dtype):  # all at once
        return [v if isinstance(v, str) else None for v in s.dt.strftime(fmt).tolist()]
    return [v.strftime(fmt) if not pd.isna(v) else None for v in s]


# --------------------------------------------------------------------------- page

CSS = """
*{box-sizing:border-box}
body{margin:0;font-family:%(font)s;color:#1f2937;background:#f3f4f6;line-height:1.45}
a{color:#1d4ed8}
header.top{background:#0f2942;color:#fff;padding:14px 24px 0}
header.top .brand{font-size:13px;letter-spacing:.06em;text-transform:uppercase;opacity:.8}
header.top h1{margin:2px 0 4px;font-size:26px;font-weight:650}
header.top .sub{opacity:.9;font-size:14px;margin-bottom:10px}
nav.menu{display:flex;gap:2px;flex-wrap:wrap}
nav.menu a{color:#dbeafe;text-decoration:none;padding:8px 14px;border-radius:6px 6px 0 0;font-size:14px}
nav.menu a.on{background:#f3f4f6;color:#0f2942;font-weight:600}
nav.menu a:hover:not(.on){background:rgba(255,255,255,.1)}
main{max-width:1240px;margin:0 auto;padding:18px 24px 40px}
section{background:#fff;border:1px solid #e5e7eb;border-radius:10px;padding:16px 20px;margin:0 0 18px}
h2{margin:0 0 8px;font-size:20px;color:#0f2942}
h3{margin:14px 0 6px;font-size:16px}
p.lead{margin:0 0 12px;color:#4b5563;font-size:14px}
.kpis{display:grid;grid-template-columns:repeat(auto-fit,minmax(170px,1fr));gap:12px;margin:0 0 18px}
.kpi{display:block;background:#fff;border:1px solid #e5e7eb;border-left:5px solid #2563eb;border-radius:8px;\
padding:10px 14px;text-decoration:none;color:inherit}
.kpi-bad{border-left-color:#dc2626}.kpi-warn{border-left-color:#d97706}.kpi-good{border-left-color:#059669}
.kpi-value{font-size:26px;font-weight:700;line-height:1.1}
.kpi-label{font-size:13px;color:#374151;font-weight:600}
.kpi-detail{font-size:12px;color:#6b7280}
a.kpi:hover{background:#f8fafc}
.note{border-radius:8px;padding:10px 14px;margin:8px 0;font-size:14px;background:#eff6ff;\
border:1px solid #bfdbfe}
.note-empty{background:#f9fafb;border:1px dashed #9ca3af;color:#374151}
.note-warn{background:#fffbeb;border-color:#fcd34d}
.note-bad{background:#fef2f2;border-color:#fca5a5}
.table-wrap{overflow:auto;max-height:560px;border:1px solid #e5e7eb;border-radius:8px;margin:6px 0}
.table-wrap.whole{overflow:visible;max-height:none}
table{border-collapse:collapse;width:100%%;font-size:13px}
caption{text-align:left;font-weight:600;padding:6px 8px}
th{position:sticky;top:0;background:#f1f5f9;text-align:left;padding:6px 8px;border-bottom:1px solid #cbd5e1;\
z-index:1;vertical-align:bottom}
th.num{white-space:normal}
td{padding:5px 8px;border-bottom:1px solid #eef2f7;vertical-align:top}
table.worklist td{padding:3px 8px;line-height:1.35}
table.worklist .muted{font-size:12px}
.act-toggle{display:none}
label.act-more{cursor:pointer;color:#1d4ed8;font-size:12.5px}
@media screen{.act-toggle:not(:checked)~.act-rest{display:none}
.act-toggle:checked~.act .act-more{display:none}}
tbody tr:nth-child(even){background:#fafbfc}
tbody tr:target{outline:2px solid #2563eb}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.nowrap{white-space:nowrap}
tr.row-bad td:first-child{border-left:4px solid #dc2626}
tr.row-warn td:first-child{border-left:4px solid #d97706}
tr.row-good td:first-child{border-left:4px solid #059669}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;\
background:#e5e7eb;color:#374151;white-space:nowrap}
.badge-bad{background:#fee2e2;color:#991b1b}.badge-warn{background:#fef3c7;color:#92400e}
.badge-good{background:#d1fae5;color:#065f46}.badge-info{background:#dbeafe;color:#1e40af}
figure.chart-box{margin:8px 0 16px}
h3.chart-title{margin:10px 0 2px}
.chart{width:100%%;position:relative}
.chart-wait{position:absolute;top:40%%;left:0;right:0;text-align:center;color:#9ca3af;font-size:13px}
.chart-caption{margin:2px 0 0;font-size:12.5px;color:#4b5563}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:18px}
@media (max-width:900px){.cols{grid-template-columns:1fr}}
.toc{display:flex;flex-wrap:wrap;gap:6px;margin:6px 0 0}
.toc a{font-size:13px;padding:3px 9px;border:1px solid #cbd5e1;border-radius:14px;text-decoration:none;\
color:#1f2937;background:#fff}
.toc a.bad{border-color:#fca5a5;background:#fef2f2}
.entity-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:10px}
.entity-head h2{margin:0}
.facts{color:#4b5563;font-size:13.5px;margin:4px 0 6px}
code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:12px;background:#f3f4f6;padding:0 3px;\
border-radius:3px}
.raw{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:12px;white-space:pre-wrap;\
word-break:break-all;max-width:520px}
footer{max-width:1240px;margin:0 auto;padding:0 24px 30px;color:#6b7280;font-size:12.5px}
.print-only{display:none}
table.wrap-head th{white-space:normal;vertical-align:bottom;min-width:6em}
.law{font-size:14px;color:#4b5563;margin:0 0 8px}
details.rule,details.more{display:inline}
details.rule summary,details.more summary{cursor:pointer;color:#1d4ed8;display:inline}
details.rule[open],details.more[open]{display:block}
details.rule .full{display:block;font-size:12.5px;color:#374151;margin:2px 0 4px;max-width:70ch}
.who{color:#374151}
.muted{color:#6b7280}
sup.rule-ref{font-size:10px;margin-left:2px;line-height:0}
span.cite{white-space:nowrap}
.rule-notes{font-size:12.5px;color:#374151;margin:10px 0 0;border-top:1px solid #e5e7eb;padding-top:6px}
.rule-notes h4{margin:0 0 4px;font-size:13px}
.rule-notes ol{margin:0;padding-left:26px}
.rule-notes li:target{background:#eff6ff}
.rule-notes li.shared{list-style:none;margin-left:-18px}
tr.detail td{border-top:0;padding-top:0;color:#374151;font-size:12.5px}
.legend{font-size:13px;margin:6px 0}
.legend dt{font-weight:600;float:left;clear:left;margin-right:6px}
.legend dd{margin:0 0 2px}
main>section{content-visibility:auto;contain-intrinsic-size:auto 900px}
""" % {"font": FONT}

# Paper: every row of every table, headers repeated, no row split across pages, and on each
# page the town, the page's title, the as-of day (the @page margin boxes of ``page``) and its number.
PRINT_WIDTH_PX = 940  # charts are redrawn this wide for US Letter landscape before printing
PRINT_CSS = """
@page{size:letter landscape;margin:0.6in 0.45in 0.55in;
  @bottom-right{content:"Page " counter(page) " of " counter(pages);font:9px %(font)s;color:#333}}
@media print{
  html,body{background:#fff}
  body{font-size:11px;color:#000}
  header.top{background:#fff;color:#000;padding:0 0 4px;border-bottom:1.5px solid #000;margin-bottom:8px}
  header.top .brand,header.top .sub{opacity:1}
  header.top h1{font-size:20px}
  nav.menu,.toc,.chart-wait,.no-print,.modebar-container{display:none!important}
  .entity-head,.facts,h3.reason{break-after:avoid;page-break-after:avoid}
  .print-only{display:block}
  main{max-width:none;margin:0;padding:0}
  section{border:0;border-radius:0;padding:0;margin:0 0 14px;break-inside:auto;background:#fff}
  h2,h3,h3.chart-title{break-after:avoid;page-break-after:avoid}
  .table-wrap{overflow:visible!important;max-height:none!important;border:0;border-radius:0}
  table{font-size:10px}
  thead{display:table-header-group}
  tfoot{display:table-footer-group}
  th{position:static;background:#e5e7eb!important;-webkit-print-color-adjust:exact;print-color-adjust:exact;
     white-space:normal}
  th.num{white-space:normal}
  tr,td,th{break-inside:avoid;page-break-inside:avoid}
  tbody tr:nth-child(even){background:#fff}
  figure.chart-box{break-inside:avoid;page-break-inside:avoid;overflow:hidden}
  figure.chart-small{margin:2px 0 6px}
  section.user,section.site{break-inside:avoid;page-break-inside:avoid}
  main>section{content-visibility:visible;contain-intrinsic-size:none}
  h3.chart-title{font-size:12px;margin:4px 0 0}
  figure.chart-small .chart{min-height:0!important}
  figure.chart-small .chart-caption,figure.chart-small h3.chart-title{display:none}
  .chart{max-width:100%%}
  td{padding:2px 5px;line-height:1.3}
  th{padding:3px 5px}
  tbody.pair{break-inside:avoid;page-break-inside:avoid}
  tr.detail td{font-size:9.5px;padding-bottom:3px}
  .rule-notes{font-size:9.5px;break-inside:auto}
  .rule-notes li{break-inside:avoid}
  p.lead{font-size:11px;margin:0 0 6px}
  h2{font-size:16px}
  .no-print,.no-print *{display:none!important}
  .badge{font-size:9.5px;padding:0 5px}
  .note{padding:4px 8px;margin:4px 0;font-size:10.5px}
  .entity-head h2{font-size:14px}.facts{font-size:10.5px;margin:2px 0}
  table.calendar td{font-size:8.5px!important;padding:1px 2px}
  table.calendar td br{display:none}
  table.calendar td strong::after{content:" "}
  .kpi-label{font-size:10.5px}.kpi-detail{font-size:9.5px}
  .kpis{grid-template-columns:repeat(6,1fr);gap:6px}
  .kpi{padding:4px 8px;border-width:1px 1px 1px 4px}
  .kpi-value{font-size:17px}
  .cols{grid-template-columns:1fr}
  a{color:#000;text-decoration:none}
  .note{break-inside:avoid}
  footer{padding:0;color:#333}
}
""" % {"font": FONT}

# Draws each chart when it comes near the viewport (so a long page opens at
# once); window.outfallRenderAll() draws every chart (used before printing and
# by the browser test). <html data-charts-total / data-charts-rendered> count them;
# data-first-chart-ms / data-all-charts-ms are when the first / last was drawn (ms after navigation).
JS = """
(function(){
  var root=document.documentElement;
  var divs=Array.prototype.slice.call(document.querySelectorAll('.chart[data-fig]'));
  root.setAttribute('data-charts-total', String(divs.length));
  root.setAttribute('data-charts-rendered', '0');
  var rendered=0;
  if(divs.length && typeof Plotly==='undefined'){
    divs.forEach(function(d){
      d.innerHTML='<p class="note note-bad">'
        + 'The chart library plotly.min.js was not found beside this page.</p>';
    });
    throw new Error('plotly.min.js is missing beside this page');
  }
  var template=JSON.parse(document.getElementById('outfall-template').textContent);
  function draw(div, width){
    if(div._outfall){return div._outfall;}
    var t0=performance.now();
    var spec=JSON.parse(document.getElementById(div.getAttribute('data-fig')).textContent);
    spec.layout.template=template;
    if(width){spec.layout.width=width; spec.layout.autosize=false;}
    div.innerHTML='';
    div._outfall=Plotly.newPlot(div, spec.data, spec.layout, spec.config).then(function(){
      div.setAttribute('data-draw-ms', String(Math.round(performance.now()-t0)));
      if(spec.clickAnchor){
        div.on('plotly_click', function(ev){
          var p=ev && ev.points && ev.points[0]; var cd=p && p.customdata;
          var key=Array.isArray(cd)?cd[0]:cd;
          if(key!==undefined && key!==null){location.hash=spec.clickAnchor+String(key);}
        });
      }
      div.setAttribute('data-rendered','1');
      rendered+=1; root.setAttribute('data-charts-rendered', String(rendered));
      var now=String(Math.round(performance.now()));
      if(rendered===1){root.setAttribute('data-first-chart-ms', now);}
      if(rendered===divs.length){root.setAttribute('data-all-charts-ms', now);}
    });
    return div._outfall;
  }
  // one chart per task, so the page stays responsive while the rest are drawn
  window.outfallRenderAll=function(){
    return divs.reduce(function(p, d){
      return p.then(function(){return new Promise(function(r){setTimeout(r, 0);});})
        .then(function(){return draw(d);});
    }, Promise.resolve());
  };
  if('IntersectionObserver' in window){
    var io=new IntersectionObserver(function(entries){
      entries.forEach(function(e){if(e.isIntersecting){io.unobserve(e.target);draw(e.target);}});
    },{rootMargin:'300px 0px'});
    divs.forEach(function(d){io.observe(d);});
  } else { window.outfallRenderAll(); }
  // Paper: every chart drawn, as wide as the printed page; back to the window's width after.
  var printWidth=+(root.getAttribute('data-print-width')||0);
  function onPaper(div){return !div.closest('.no-print');}
  function fit(div, width){  // Plotly draws a relayout at once: the print dialog sees the new width
    var tall=+(div.getAttribute('data-print-height')||0);
    var paper=JSON.parse(div.getAttribute('data-print-layout')||'{}');
    var first=div.getAttribute('data-rendered')!=='1';
    var drawn=first ? draw(div, width) : Promise.resolve();
    return Promise.resolve(drawn).then(function(){
      if(width){  // on paper: as wide as the page, and as tall and plain as the page says
        var size=Object.assign({width: width, autosize: false}, paper);
        if(tall){size.height=tall;}
        return Plotly.relayout(div, size);
      }
      if(first){return null;}
      if(tall || Object.keys(paper).length){  // back as it was drawn on screen
        var spec=JSON.parse(document.getElementById(div.getAttribute('data-fig')).textContent);
        spec.layout.template=template;
        return Plotly.react(div, spec.data, spec.layout, spec.config);
      }
      return Plotly.relayout(div, {autosize: true, width: null});
    });
  }
  window.outfallPrepareForPrint=function(){
    return divs.filter(onPaper).reduce(function(p, d){return p.then(function(){return fit(d, printWidth);});},
                                       Promise.resolve());
  };
  window.addEventListener('beforeprint', function(){
    divs.filter(onPaper).forEach(function(d){fit(d, printWidth);});
  });
  window.addEventListener('afterprint', function(){divs.forEach(function(d){if(d._outfall){fit(d, 0);}});});
})();
"""


@dataclass
class PageMeta:
    """What a builder reports besides the HTML (for the asset's metadata and tests)."""

    charts: int = 0
    empty_sections: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


def print_header_css(town: str, title: str, as_of: dt.date | None) -> str:
    """On each printed page: the town and the page's title at the top left, the as-of day at the top right."""
    left = " · ".join(t for t in (town, title) if t)
    right = f"as of {as_of:%B} {as_of.day}, {as_of.year}" if as_of else ""
    return (
        "@page{"
        f"@top-left{{content:{css_string(left)};font:10px {FONT};color:#000}}"
        f"@top-right{{content:{css_string(right)};font:10px {FONT};color:#000}}}}"
    )


def page(
    *,
    file: str,
    title: str,
    subtitle: str,
    body: str,
    as_of: dt.date | None,
    generated_at: dt.datetime | None = None,
    has_charts: bool = True,
    footer_note: str = "",
    extra_css: str = "",
    town: str = "",
    laws: dict[str, str] | None = None,
) -> str:
    """A complete, self-standing HTML page (plotly.min.js beside it when it has charts).

    ``town``: who the page is about (the rules files' names, e.g. "Town of ..."), printed atop every paper
    page with the title and the as-of day; ``laws``: the rules' names (``law_names``), which name each
    person's page in the menu."""
    menu = "".join(
        f'<a href="{f}"{" class=on" if f == file else ""}>'
        f"{esc(role_name(laws, label) if label in ROLES else label)}</a>"
        for f, label in PAGES
    )
    scripts = ""
    if has_charts:
        scripts = (
            f'<script src="{PLOTLY_JS}" charset="utf-8"></script>'
            f'<script type="application/json" id="outfall-template">{script_json(TEMPLATE)}</script>'
            f"<script>{JS}</script>"
        )
    gen = f" · page written {esc(generated_at.strftime('%Y-%m-%d %H:%M'))}" if generated_at else ""
    brand = f"{esc(town) if town else 'Outfall'} · sewer &amp; stormwater compliance"
    as_of_text = f"as of {esc(as_of.isoformat())}" if as_of else ""
    foot = (
        f"<footer>Outfall · {as_of_text}{gen} · times in {esc(local_timezone())}. "
        f"Opens without a server or internet; charts use {PLOTLY_JS} beside this page.{footer_note}</footer>"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"'
        + f' data-print-width="{PRINT_WIDTH_PX}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)} · Outfall</title><style>{CSS}{PRINT_CSS}{print_header_css(town, title, as_of)}"
        f"{extra_css}</style></head><body>"
        f'<header class="top"><div class="brand">{brand}</div>'
        f'<h1>{esc(title)}</h1><div class="sub">{subtitle}</div><nav class="menu">{menu}</nav></header>'
        f"<main>{body}</main>{foot}{scripts}</body></html>\n"
    )


def join(parts: Iterable[str]) -> str:
    return "".join(p for p in parts if p)


def finite(value: Any) -> bool:
    try:
        return not is_missing(value) and math.isfinite(float(value))
    except (TypeError, ValueError):
        return False
