"""The blocks of a page: notes, counts (KPI cards), badges, tables with their cited rules, sections."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from dashboards.html.text import esc, fmt_datetime, fmt_measure, short_rule, slug
from outfall.rules.judged import Judged
from outfall.words import is_missing, number as fmt_num


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
