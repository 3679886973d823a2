"""The index page: what went wrong, what to do next, the people's cards, the reports, the data and why
rows were quarantined."""

from __future__ import annotations

import pandas as pd

from dashboards.html import (
    Col,
    Kpi,
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
    page_of,
    section,
    slug,
    table,
)
from dashboards.index.data import IndexData, _range_text, _span
from dashboards.worklist import worklist_summary


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
    html_text = page_of(
        data,
        file="index.html",
        title="Outfall dashboards",
        subtitle=esc(
            f"Sewer and stormwater compliance · as of {data.as_of.isoformat()}"
            + (f" · data {fmt_date(first)} to {fmt_date(last)}" if first is not None else "")
        ),
        body=join(panel(data) for panel in INDEX_PANELS),
        extra_css=_CARD_CSS,
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
