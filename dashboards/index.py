"""The index page (links to every page, the as-of date, the data's date range
and the rows quarantined per dataset) and the quarantine list page, so that
bad data is seen, not hidden.

Pure: ``build_index_page(IndexData)`` and ``build_quarantine_page(IndexData)``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from dashboards.html import (
    Col,
    Kpi,
    PageData,
    PageMeta,
    as_frame,
    day_words,
    esc,
    fmt_date,
    fmt_datetime,
    fmt_num,
    frames,
    is_missing,
    join,
    kpis,
    no_data,
    note,
    noun,
    page,
    section,
    slug,
    table,
)
from dashboards.worklist import worklist_summary


@dataclass
class PageCard:
    file: str
    title: str
    who: str
    what: str
    exists: bool = True
    numbers: list[tuple[str, str, str]] = field(default_factory=list)  # (value, label, tone)


@dataclass
class IndexData(PageData):
    """ingested: dataset, files, rows_read, rows_kept, rows_quarantined, rows_left_blank (rows of the
    to-record workbook saved back with nothing filled in), last_loaded
    ranges: dataset, what (the column), first, last, rows
    quarantine_counts: dataset, reason, rows
    quarantine: the quarantined rows shown (the first ``quarantine_per_reason`` of each dataset and reason,
    with ``reason_rows``: how many share the reason, and ``prefilled``: a row of a sheet Outfall prefilled,
    listed first); quarantine_total: all of them."""

    cards: list[PageCard] = field(default_factory=list)
    ingested: pd.DataFrame | None = None
    ranges: pd.DataFrame | None = None
    quarantine_counts: pd.DataFrame | None = None
    quarantine: pd.DataFrame | None = None
    quarantine_total: int = 0
    quarantine_per_reason: int = 50
    set_aside: pd.DataFrame | None = None  # rows kept but not judged by an asset (table set_aside)
    # what an asset could not judge for want of a rule in effect on its day (table not_judged): asset,
    # section, reason, items, first_day, last_day, examples (the first few things by name)
    not_judged: pd.DataFrame | None = None
    reports: list[tuple[str, str]] = field(
        default_factory=list
    )  # (file, label) of the annual reports written
    worklist: pd.DataFrame | None = None  # what each person must do next (table worklist)
    # the input rows the run did not judge, dated after its day (table held_back): dataset, rows_after,
    # later_facts_after
    held_back: pd.DataFrame | None = None
    # the steps of this run that failed, and why in plain words (step, why): none when the run finished
    failures: list[tuple[str, str]] = field(default_factory=list)


def _range_text(first: Any, last: Any) -> str:
    if is_missing(first) and is_missing(last):
        return ""
    return f"{fmt_date(first)} to {fmt_date(last)}"


def _observed(data: IndexData) -> pd.DataFrame:
    """The date ranges of the datasets observed (samples, readings, rain, inspections, tests)."""
    ranges = as_frame(data.ranges)
    return ranges[ranges["observed"].fillna(True).astype(bool)] if "observed" in ranges else ranges


def _span(data: IndexData) -> tuple[Any, Any]:
    observed = _observed(data)
    if observed.empty:
        return None, None
    first, last = pd.to_datetime(observed["first"]).min(), pd.to_datetime(observed["last"]).max()
    return (None if pd.isna(first) else first), (None if pd.isna(last) else last)


def panel_failures(data: IndexData) -> str:
    """First of all, when the run did not finish: which steps failed and why; the pages show what the
    warehouse held, and what those steps write is as the last run that finished them left it."""
    if not data.failures:
        return ""
    steps = "".join(f"<li><code>{esc(step)}</code>: {esc(why)}</li>" for step, why in data.failures)
    n = len(data.failures)
    return section(
        "This run did not finish",
        note(
            f"<strong>{n} step{'s' if n != 1 else ''} of the run as of {esc(day_words(data.as_of))} failed"
            f"</strong> (the details are in outfall.log beside the warehouse):<ul>{steps}</ul>"
            "What those steps write, and what reads it, is as the last run that finished them left it; the "
            "pages were written again from what the warehouse holds. Correct what is said above and run "
            "Outfall again.",
            "bad",
        ),
        sid="failed",
    )


def panel_worklist(data: IndexData) -> str:
    return section(
        "What to do next",
        worklist_summary(data.worklist, data.laws),
        sid="worklist",
        lead=esc(
            f"Each person's actions as of {day_words(data.as_of)}: overdue, due within the week, with no "
            f"date set by law, upcoming. Click a person for their whole list."
        ),
    )


def _per_folder(frame: pd.DataFrame, column: str) -> str:
    return ", ".join(f"{esc(r['dataset'])} {fmt_num(int(r[column]))}" for _, r in frame.iterrows())


def panel_after_as_of(data: IndexData) -> str:
    """The input rows this run did not judge because they are dated after its day, per folder; and the
    rows it judged with what came after the day left out (contract 8.1). A run as of a later day judges
    them."""
    held = as_frame(data.held_back)
    if held.empty:
        return ""
    day = esc(day_words(data.as_of))
    after = held[held["rows_after"] > 0]
    later = held[held["later_facts_after"] > 0]
    n_after, n_later = int(after["rows_after"].sum()), int(later["later_facts_after"].sum())
    text = []
    if n_after:
        text.append(
            f"<strong>{fmt_num(n_after)} input {noun(n_after, 'row')} dated after {day} "
            f"{'was' if n_after == 1 else 'were'} not judged</strong> ({_per_folder(after, 'rows_after')}): "
            f"on {day} {'it was' if n_after == 1 else 'they were'} not yet a fact. "
        )
    if n_later:
        text.append(
            f"{fmt_num(n_later)} {noun(n_later, 'row')} {'was' if n_later == 1 else 'were'} judged as "
            f"{'it' if n_later == 1 else 'they'} stood on {day}, without what came after it (a final "
            f"stabilization, a decision, a receipt; {_per_folder(later, 'later_facts_after')}). "
        )
    refused = held[held["quarantined_after"] > 0] if "quarantined_after" in held else held.iloc[0:0]
    n_refused = int(refused["quarantined_after"].sum()) if not refused.empty else 0
    if n_refused:
        verb = "is" if n_refused == 1 else "are"
        text.append(
            f"{fmt_num(n_refused)} {noun(n_refused, 'row')} that could not be read and {verb} dated after "
            f"{day} {verb} not listed on the quarantine page ({_per_folder(refused, 'quarantined_after')}). "
        )
    text.append("A run as of a later day judges them; the rows stay loaded.")
    return note("".join(text), "warn")


def panel_run(data: IndexData) -> str:
    """The run at a glance; each count linked to the list on this page it is the length of."""
    ingested = as_frame(data.ingested)
    first, last = _span(data)
    rows_read = int(ingested["rows_read"].sum()) if not ingested.empty else 0
    q_total = int(data.quarantine_total)
    listed = not (as_frame(data.ingested).empty and as_frame(data.ranges).empty)
    datasets = len(_datasets(data)) if listed else 0  # the rows of the data's table (panel_data)
    reasons = len(_top_reasons(data))
    all_reasons = len(as_frame(data.quarantine_counts))
    return kpis(
        [
            Kpi("as of", data.as_of.isoformat(), "the day 'overdue' is judged"),
            Kpi(
                "data from",
                fmt_date(first) if first is not None else "no data",
                f"to {fmt_date(last)}" if last is not None else "",
            ),
            Kpi(
                noun(datasets, "dataset") + " read",
                fmt_num(datasets),
                f"{fmt_num(rows_read)} rows" if not ingested.empty else "no files yet",
                "",
                "#data" if listed else "",
            ),
            Kpi(
                ("most frequent " if reasons < all_reasons else "")
                + noun(reasons, "reason")
                + " for quarantined rows",
                fmt_num(reasons),
                f"{fmt_num(q_total)} {noun(q_total, 'row')} quarantined, each on the quarantine page",
                "bad" if q_total else "good",
                "#reasons" if reasons else "",
            ),
        ]
    )


def panel_cards(data: IndexData) -> str:
    cards = []
    for c in data.cards:
        nums = "".join(
            f'<div class="card-num card-{esc(tone)}"><b>{esc(v)}</b> {esc(label)}</div>'
            for v, label, tone in c.numbers
        )
        state = "" if c.exists else '<p class="note note-empty">Not written yet: its asset has not run.</p>'
        link_open = f'<a class="card" href="{esc(c.file)}">' if c.exists else '<div class="card">'
        link_close = "</a>" if c.exists else "</div>"
        cards.append(
            f'{link_open}<div class="card-who">{esc(c.who)}</div><h3>{esc(c.title)}</h3>'
            f"<p>{esc(c.what)}</p>{nums}{state}{link_close}"
        )
    return section(
        "Dashboards",
        f'<div class="cards">{"".join(cards)}</div>',
        sid="pages",
        lead="Each number says the period it counts; the pages count the same way.",
    )


def panel_reports(data: IndexData) -> str:
    if not data.reports:
        return ""
    links = "".join(f'<li><a href="{esc(f)}">{esc(label)}</a></li>' for f, label in data.reports)
    return section(
        "Annual pretreatment reports",
        f"<ul>{links}</ul>",
        sid="reports",
        lead="For the approval authority (40 CFR 403.12(i)), one per calendar year: the industrial users, "
        "their sampling and violations, significant noncompliance and the notices mailed, ready to "
        "print.",
    )


def _datasets(data: IndexData) -> pd.DataFrame:
    """Rows per dataset, with its date range, the rows it has in the quarantine now and those dated after
    the run's day."""
    ingested, ranges, qcounts, held = frames(data, "ingested", "ranges", "quarantine_counts", "held_back")
    merged = ingested.copy() if not ingested.empty else pd.DataFrame({"dataset": ranges["dataset"]})
    if not ranges.empty:
        merged = merged.merge(ranges, on="dataset", how="outer")
    if not held.empty:
        merged = merged.merge(held[["dataset", "rows_after"]], on="dataset", how="left")
    if not qcounts.empty:
        q = (
            qcounts.groupby("dataset", as_index=False)["rows"]
            .sum()
            .rename(columns={"rows": "quarantined_now"})
        )
        merged = merged.merge(q, on="dataset", how="left")
    else:
        merged["quarantined_now"] = 0
    merged["quarantined_now"] = merged["quarantined_now"].fillna(0).astype(int)
    return merged.sort_values("dataset")


def _quarantined_cell(r: pd.Series) -> str:
    n = int(r.get("quarantined_now") or 0)
    return f'<a class="bad-link" href="quarantine.html#q-{esc(slug(r["dataset"]))}">{n:,}</a>' if n else "0"


def _balanced(r: pd.Series) -> str:
    read, kept, qn = r.get("rows_read"), r.get("rows_kept"), r.get("rows_quarantined")
    if any(is_missing(v) for v in (read, kept, qn)):
        return ""
    return "yes" if int(read) == int(kept) + int(qn) else "NO"


def panel_data(data: IndexData) -> str:
    if as_frame(data.ingested).empty and as_frame(data.ranges).empty:
        d_html = no_data("ingested_files", data.present.get("ingested_files"), "input files loaded")
    else:
        d_html = table(
            _datasets(data),
            [
                Col("dataset", "Dataset", nowrap=True),
                Col("files", "Files", num=True, fmt=fmt_num),
                Col("rows_read", "Rows read", num=True, fmt=fmt_num),
                Col("rows_kept", "Kept", num=True, fmt=fmt_num),
                Col("quarantined_now", "Quarantined", num=True, html=_quarantined_cell),
                Col(
                    "rows_left_blank",
                    "Left blank",
                    num=True,
                    fmt=fmt_num,
                    title="rows of the to-record "
                    "workbook saved back with nothing filled in: they record nothing",
                ),
                Col("balance", "Read = kept + quarantined", html=lambda r: esc(_balanced(r))),
                Col(
                    "rows_after",
                    "Dated after the day",
                    num=True,
                    fmt=fmt_num,
                    title="rows kept whose own day is after the day this run judges: not judged yet",
                ),
                Col("what", "Dates of"),
                Col(
                    "first",
                    "Range",
                    html=lambda r: esc(_range_text(r.get("first"), r.get("last"))),
                    nowrap=True,
                ),
                Col("last_loaded", "Last loaded", fmt=fmt_datetime, nowrap=True),
            ],
        )
    return section(
        "The data",
        d_html,
        sid="data",
        lead="Rows read from the input files, kept, and quarantined (rejected with a reason: click a "
        "count to see the rows), and the dates each dataset covers.",
    )


def _top_reasons(data: IndexData) -> pd.DataFrame:
    """The reasons rows were quarantined that the index lists: the 12 most frequent."""
    qcounts = as_frame(data.quarantine_counts)
    if qcounts.empty:
        return qcounts
    return qcounts.sort_values(["rows", "dataset"], ascending=[False, True]).head(12)


def panel_reasons(data: IndexData) -> str:
    qcounts = as_frame(data.quarantine_counts)
    if qcounts.empty:
        return ""
    top = _top_reasons(data)
    return section(
        "Why rows were quarantined",
        table(
            top,
            [
                Col(
                    "dataset",
                    "Dataset",
                    nowrap=True,
                    html=lambda r: (
                        f'<a href="quarantine.html#q-{esc(slug(r["dataset"]))}">{esc(r["dataset"])}</a>'
                    ),
                ),
                Col("reason", "Reason"),
                Col("rows", "Rows", num=True, fmt=fmt_num),
            ],
        ),
        sid="reasons",
        lead=esc(
            f"The {len(top)} most frequent of {len(qcounts)} reasons; every reason and every rejected row "
            "is on the quarantine page."
            if len(qcounts) > len(top)
            else "Every reason; the rejected rows are on the quarantine page."
        ),
    )


# The index, top to bottom: what to do, the run, the pages and their numbers, then the data.
INDEX_PANELS = (
    panel_failures,
    panel_worklist,
    panel_after_as_of,
    panel_run,
    panel_cards,
    panel_reports,
    panel_data,
    panel_reasons,
)


def build_index_page(data: IndexData) -> tuple[str, PageMeta]:
    first, last = _span(data)
    html_text = page(
        file="index.html",
        title="Outfall dashboards",
        subtitle=esc(
            f"Sewer and stormwater compliance · as of {data.as_of.isoformat()}"
            + (f" · data {fmt_date(first)} to {fmt_date(last)}" if first is not None else "")
        ),
        body=join(panel(data) for panel in INDEX_PANELS),
        extra_css=_CARD_CSS,
        as_of=data.as_of,
        town=data.town,
        laws=data.laws,
        generated_at=data.generated_at,
        has_charts=False,
    )
    return html_text, PageMeta(
        counts={"quarantined": int(data.quarantine_total), "datasets": len(as_frame(data.ingested))}
    )


_CARD_CSS = """
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:14px}
.card{display:block;border:1px solid #cbd5e1;border-radius:10px;padding:14px 16px;text-decoration:none;\
color:inherit;background:#fff}
a.card:hover{border-color:#2563eb;box-shadow:0 2px 8px rgba(37,99,235,.15)}
.card h3{margin:2px 0 6px;color:#1d4ed8;font-size:18px}
.card p{margin:0 0 8px;font-size:13.5px;color:#4b5563}
.card-who{font-size:12px;text-transform:uppercase;letter-spacing:.05em;color:#6b7280}
.card-num{font-size:13.5px;margin:2px 0}.card-num b{font-size:17px}
.card-bad b{color:#b91c1c}.card-warn b{color:#b45309}.card-good b{color:#047857}
a.bad-link{color:#b91c1c;font-weight:700}
"""


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
    html_text = page(
        file="quarantine.html",
        title="Quarantined input rows",
        subtitle=esc(
            f"Rows rejected on input, with the reason a clerk can act on · as of {data.as_of.isoformat()}"
        ),
        body=join(panel(data) for panel in QUARANTINE_PANELS),
        as_of=data.as_of,
        town=data.town,
        laws=data.laws,
        generated_at=data.generated_at,
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
