"""The quarantine page: the rows that could not be read, the rows set aside and what no rule could judge,
each with the values received."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd

from dashboards.html import (
    Col,
    PageMeta,
    as_frame,
    esc,
    fmt_date,
    fmt_num,
    is_missing,
    join,
    no_data,
    note,
    page_of,
    section,
    slug,
    table,
)
from dashboards.index.data import IndexData, _range_text


def _per_dataset(data: IndexData) -> pd.Series:
    """Rows quarantined per dataset, every one of them (not only those shown)."""
    qcounts = as_frame(data.quarantine_counts)
    return (
        qcounts.groupby("dataset")["rows"].sum().sort_index() if not qcounts.empty else pd.Series(dtype=int)
    )


def left_blank_line(data: IndexData) -> str:
    """The summary line of the to-record workbook's rows saved back with nothing filled in (contract 7.5):
    they record nothing and are not quarantined; '' when there are none."""
    ingested = as_frame(data.ingested)
    if "rows_left_blank" not in ingested:
        return ""
    per = ingested.set_index("dataset")["rows_left_blank"].fillna(0).astype(int)
    per = per[per > 0]
    if per.empty:
        return ""
    total = int(per.sum())
    where = ", ".join(f"{n:,} in {d}" for d, n in per.items())
    return note(
        esc(
            f"Left blank: {total:,} row{'s' if total != 1 else ''} of the to-record workbook "
            f"({where}) {'were' if total != 1 else 'was'} saved back with nothing filled in. "
            f"{'They record' if total != 1 else 'It records'} nothing and {'are' if total != 1 else 'is'} "
            "not quarantined; what waits is in the next workbook."
        ),
        "info",
    )


def _prefilled_line(data: IndexData) -> str:
    rows = as_frame(data.quarantine)
    n = int(rows["prefilled"].fillna(False).astype(bool).sum()) if "prefilled" in rows else 0
    if not n:
        return ""
    return note(
        esc(
            f"{n:,} row{'s' if n != 1 else ''} filled in the to-record workbook could not be read: "
            f"{'they come' if n != 1 else 'it comes'} first below, with the column to correct. Correct "
            f"{'them' if n != 1 else 'it'} in the workbook, save it again and run Outfall."
        ),
        "warn",
    )


def panel_quarantined(data: IndexData) -> str:
    """How many rows were refused and why they are listed as they are, with a link to each dataset's; the
    summary line of the to-record workbook's rows left blank and of those filled wrongly (first below)."""
    total = int(data.quarantine_total)
    if data.quarantine is None:
        return section(
            "Quarantined rows", no_data("quarantine", data.present.get("quarantine"), "rejected input rows")
        )
    if total == 0:
        return section(
            "Quarantined rows",
            note("No input row was rejected: every row read was kept.", "info") + left_blank_line(data),
        )
    toc = "".join(
        f'<a class="bad" href="#q-{esc(slug(d))}">{esc(d)} · {int(n):,}</a>'
        for d, n in _per_dataset(data).items()
    )
    lead = (
        f"{total:,} rows of the input files could not be read and were set aside. They are grouped by "
        "input folder and by reason, so that one fix mends every row with the same reason. Each row "
        "shows its file, its row number (1 = the first data row; 0 = the whole file) and its values "
        "as they were received; correct the file and run Outfall again."
    )
    if len(as_frame(data.quarantine)) < total:
        lead += (
            f" Of a reason shared by more than {data.quarantine_per_reason:,} rows, the first "
            f"{data.quarantine_per_reason:,} are listed here; {ALL_ROWS_WHERE}"
        )
    return section(
        "Quarantined rows",
        left_blank_line(data) + _prefilled_line(data) + f'<div class="toc">{toc}</div>',
        sid="top",
        lead=esc(lead),
    )


def panel_quarantined_rows(data: IndexData) -> str:
    """A section per dataset: its refused rows, a table per reason, each value under its column."""
    rows = as_frame(data.quarantine)
    if data.quarantine is None or int(data.quarantine_total) == 0:
        return ""
    per = _per_dataset(data)
    sections = []
    # the rows filled in the to-record workbook first (the statement lists them first), then by dataset
    for dataset, frame in rows.groupby("dataset", sort=False):
        parts = []
        for reason, group in frame.groupby("reason", sort=False):
            n = int(group["reason_rows"].iloc[0]) if "reason_rows" in group else len(group)
            parts.append(
                f'<h3 class="reason">{esc(reason)} <span class="count">'
                f"({n:,} row{'s' if n != 1 else ''})</span></h3>"
            )
            parts.append(received_table(group.sort_values(["source_file", "row_number"])))
            if n > len(group):
                parts.append(
                    note(
                        esc(f"The first {len(group):,} of these {n:,} rows are listed; {ALL_ROWS_WHERE}"),
                        "info",
                    )
                )
        n_rows = int(per.get(dataset, len(frame)))
        sections.append(
            section(
                f"{dataset}: {n_rows:,} row{'s' if n_rows != 1 else ''}",
                join(parts),
                sid=f"q-{slug(dataset)}",
            )
        )
    return join(sections)


def panel_set_aside(data: IndexData) -> str:
    """Rows kept that an asset could not judge (table set_aside), a table per dataset and reason."""
    aside = as_frame(data.set_aside)
    if aside.empty:
        return ""
    parts = []
    for (dataset, reason), group in aside.groupby(["dataset", "reason"], sort=True):
        parts.append(
            f'<h3 class="reason">{esc(dataset)}: {esc(reason)} <span class="count">'
            f"({len(group):,} row{'s' if len(group) != 1 else ''})</span></h3>"
        )
        parts.append(received_table(group.sort_values(["source_file", "row_number"])))
    return section(
        "Rows kept but not judged",
        join(parts),
        sid="set-aside",
        lead=esc(
            "These rows were read and kept, but they could not be judged against the law "
            "(the reason says why). Correct them or the records they point to, and run "
            "Outfall again."
        ),
    )


def _days_text(first: Any, last: Any) -> str:
    """'1999-01-31 to 1999-07-31', or the one day."""
    return fmt_date(first) if fmt_date(first) == fmt_date(last) else _range_text(first, last)


def _not_judged_what(r: dict) -> str:
    """The first things not judged by name, and how many more there are."""
    examples = r.get("examples")
    names = [] if examples is None else [str(e) for e in examples]
    more = int(r["items"]) - len(names)
    return "; ".join(names) + (f"; and {more:,} more" if more > 0 else "")


def panel_not_judged(data: IndexData) -> str:
    """What an asset could not judge because no version of the rules covers its day (table not_judged): one
    line per asset, rules section and reason. What mends it is a version of the rules, not a file."""
    frame = as_frame(data.not_judged)
    if frame.empty:
        return ""
    body = table(
        frame,
        [
            Col("asset", "Found by", nowrap=True, html=lambda r: f"<code>{esc(r['asset'])}</code>"),
            Col("section", "Rules section", nowrap=True, html=lambda r: f"<code>{esc(r['section'])}</code>"),
            Col("reason", "Why"),
            Col("items", "How many", num=True, fmt=fmt_num),
            Col(
                "first_day",
                "Days",
                nowrap=True,
                html=lambda r: esc(_days_text(r.get("first_day"), r.get("last_day"))),
            ),
            Col("examples", "What", html=lambda r: esc(_not_judged_what(r))),
        ],
    )
    return section(
        "Not judged: no rule in effect on the day",
        body,
        sid="not-judged",
        lead=esc(
            "What a step of the run could not judge because no version of the rules covers its day (a sample "
            "before the rules' first limits, a slug day, a testing period). Nothing is guessed: these are "
            "judged "
            "once the rules file has a version in effect on those days (docs/rules.md lists each section's "
            "versions), at the next run."
        ),
    )


# The quarantine page, top to bottom: the rows refused on input, the rows kept but not judged, and what
# could not be judged for want of a rule.
QUARANTINE_PANELS = (panel_quarantined, panel_quarantined_rows, panel_set_aside, panel_not_judged)


def build_quarantine_page(data: IndexData) -> tuple[str, PageMeta]:
    meta = PageMeta(
        counts={
            "quarantined": int(data.quarantine_total),
            "shown": len(as_frame(data.quarantine)),
            "set_aside": len(as_frame(data.set_aside)),
            "not_judged": int(as_frame(data.not_judged).get("items", pd.Series(dtype=int)).sum()),
        }
    )
    html_text = page_of(
        data,
        file="quarantine.html",
        title="Quarantined input rows",
        subtitle=esc(
            f"Rows rejected on input, with the reason a clerk can act on · as of {data.as_of.isoformat()}"
        ),
        body=join(panel(data) for panel in QUARANTINE_PANELS),
        has_charts=False,
        extra_css=_QUARANTINE_CSS,
    )
    return html_text, meta


ALL_ROWS_WHERE = (
    "every rejected row is in the file quarantine.csv, in the csv folder that "
    "'outfall export' writes (and on the quarantine sheet of its workbook outfall_tables.xlsx)."
)

_QUARANTINE_CSS = """
h3.reason{font-size:14.5px;margin:16px 0 4px}h3.reason .count{font-weight:400;color:#4b5563}
td.blank{color:#9ca3af;font-style:italic}
.received{white-space:pre-wrap;word-break:break-all;font-family:ui-monospace,'DejaVu Sans Mono',monospace;
  font-size:12px}
"""


def received_values(raw: Any) -> dict[str, str] | None:
    """A quarantined row's values by column, as received (None: not a row of columns, e.g. a bad line)."""
    if is_missing(raw):
        return None
    try:
        value = json.loads(str(raw))
    except (TypeError, ValueError):
        return None
    if not isinstance(value, dict):
        return None
    return {str(k): "" if v is None else str(v) for k, v in value.items()}


def received_table(group: pd.DataFrame) -> str:
    """The rejected rows of one reason as a table: file, row, then each column of the file with its value."""
    values = [received_values(r) for r in group["raw"]]
    columns: list[str] = []
    for v in values:
        for k in v or {}:
            if k not in columns:
                columns.append(k)
    lines = [not is_missing(r) and v is None for r, v in zip(group["raw"], values)]
    head = (
        "<th>File</th><th class=num>Row</th>"
        + "".join(f"<th>{esc(c)}</th>" for c in columns)
        + ("<th>As received</th>" if any(lines) else "")
    )
    body = []
    for (_, r), v, is_line in zip(group.iterrows(), values, lines):
        cells = [
            f'<td class="nowrap">{esc(r.get("source_file"))}</td>',
            f'<td class="num">{esc(fmt_num(r.get("row_number")))}</td>',
        ]
        for c in columns:
            text = (v or {}).get(c)
            cells.append(
                '<td class="blank">blank</td>'
                if v is not None and text == ""
                else f"<td>{esc(_clip(text)) if text is not None else ''}</td>"
            )
        if any(lines):
            cells.append(
                f'<td><div class="received">{esc(_clip(r.get("raw"))) if is_line else ""}</div></td>'
            )
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (
        f'<div class="table-wrap"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _clip(text: Any, limit: int = 400) -> str:
    s = str(text)
    return s if len(s) <= limit else s[: limit - 1] + "…"
