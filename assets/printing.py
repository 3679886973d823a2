"""Letters on paper: every letter that is ready to mail, printed to PDF.

``letter_pdfs`` reads the table ``letters`` (``assets/records.py``) and prints, in one headless
Chromium session (``outfall.pdf``), to ``<dashboards>/letters/<area>/pdf/<letter>.pdf``:

- each mailed notice of violation that is ready to send and not yet on record; ``letters/mailed_notices.pdf``
  joins the mailed notices ready to send in mailing order (mailing day, kind, recipient, month). A draft
  gets no PDF;
- each other letter that is ready to mail; per area, ``ready_to_mail.pdf`` joins them in the order of their
  file names. The annual list of users in significant noncompliance is printed but, being for publication,
  is in no batch to mail.

A letter that is not ready is in no batch. A document on record (``documents_issued``) is never printed
again and its PDF never removed. A letter whose HTML did not change is not printed again. Without
Chromium the run still succeeds with the HTML letters and says in one line what to install.
"""

import sys
import time
from pathlib import Path

from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_DASHBOARDS, WAREHOUSE_POOL, outputs, warehouse
from assets.records import pdf_of
from outfall.document_kinds import KINDS, MAILED_NOTICES, READY_TO_MAIL, writers
from outfall.letters import read_letterhead
from outfall.pdf import join_pdfs, print_pdfs
from outfall.records import files_on_record
from outfall.resources import OutfallSettings
from outfall.warehouse import sql

AREAS = tuple(sorted({k.area for k in KINDS.values()}))
BATCH = f"{READY_TO_MAIL}.pdf"
NOTICES_BATCH = f"{MAILED_NOTICES}.pdf"  # in <dashboards>/letters/
# The kinds printed into each batch (the registry's ``batch``; None: printed, in no batch to mail).
NOTICE_KINDS = tuple(k.name for k in KINDS.values() if k.batch == MAILED_NOTICES)
AREA_KINDS = tuple(k.name for k in KINDS.values() if k.batch == READY_TO_MAIL)
# The assets whose letters are printed: `outfall run` starts Chromium (outfall.pdf.warm) when the
# first of them starts, so that the browser is up by the time the letters are.
LETTER_SOURCES = writers()


def _say(line: str) -> None:
    """One plain line for the person running Outfall (the command line shows stderr)."""
    print(f"outfall: {line}", file=sys.stderr)


def _batch(parts: list[Path], out: Path) -> int:
    """Join ``parts`` into ``out`` (or remove ``out`` when there is nothing to join); 1 when written."""
    if parts:
        join_pdfs(parts, out, titles=[p.stem for p in parts])
        return 1
    if out.exists():
        out.unlink()
    return 0


def _remove_stale_pdfs(dashboards: Path, keep: set[Path]) -> int:
    removed = 0
    for area in AREAS:
        folder = dashboards / "letters" / area / "pdf"
        for stale in sorted(folder.glob("*.pdf")) if folder.is_dir() else []:
            if stale not in keep:
                stale.unlink()
                removed += 1
    return removed


@asset(
    pool=WAREHOUSE_POOL,
    group_name=GROUP_DASHBOARDS,
    kinds={"pdf"},
    deps=["letters"],
    description="Every mailed notice of violation that is ready to send, and every other letter ready to "
    "mail (letterhead configured, recipient's full address on file), printed to PDF beside its HTML "
    "(<dashboards>/letters/<area>/pdf/) with headless Chromium; the mailed notices joined in mailing order "
    "(letters/mailed_notices.pdf) and the other letters in one ready_to_mail.pdf per area. A letter not "
    "ready is in no batch; a document on record is never printed again. Without Chromium the HTML letters "
    "stand and the run says what to install.",
)
def letter_pdfs(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings
) -> MaterializeResult:
    started = time.perf_counter()
    dashboards = outputs(duckdb, settings).dashboards
    if dashboards is None:
        context.log.warning("in-memory warehouse and no dashboards folder: no letters to print")
        return MaterializeResult(metadata={"pdfs": 0})
    with warehouse(duckdb, as_of=settings.as_of_date()) as con:
        rows = con.execute(sql("select_letters_to_print")).fetchall()
        not_ready = con.execute(sql("count_letters_not_ready")).fetchall()[0][0]
        # the record's files, whatever day this run judges by: never printed again nor removed
        on_record = {dashboards / f for f in files_on_record(con) if f.endswith(".pdf")}
    jobs, recorded = [], set(on_record)
    for letter, kind, _area, _dated, is_recorded, _ready in rows:
        html = dashboards / letter
        if is_recorded:
            recorded.add(pdf_of(html))
        elif html.is_file():
            jobs.append((html, pdf_of(html), kind))
    report = print_pdfs((html, pdf) for html, pdf, _kind in jobs)
    printed = set(report.written) | set(report.unchanged) | {p for p in recorded if p.is_file()}
    removed = _remove_stale_pdfs(dashboards, printed)
    batches = 0
    for area in AREAS:
        parts = [
            pdf_of(dashboards / letter)
            for letter, kind, a, _d, _r, ready in rows
            if a == area and ready and kind in AREA_KINDS
        ]
        batches += _batch([p for p in parts if p in printed], dashboards / "letters" / area / BATCH)
    notice_parts = [
        pdf_of(dashboards / letter)
        for letter, kind, _a, _d, _r, ready in sorted(rows, key=lambda r: (r[3] or r[0], r[0]))
        if kind in NOTICE_KINDS and ready
    ]
    notice_parts = [p for p in notice_parts if p in printed]
    batches += _batch(notice_parts, dashboards / "letters" / NOTICES_BATCH)
    if report.unavailable:
        _say(report.unavailable)
        context.log.warning(report.unavailable)
    if not_ready:
        problem = read_letterhead(settings.data_path()).problem
        why = problem or "the letters table and the top of each letter say why"
        _say(
            f"{not_ready} letter{'s' if not_ready != 1 else ''} not ready to mail, kept out of the batches "
            f"to print ({why})"
        )
    for html_path, why in report.failed:
        context.log.warning(f"{html_path.name} could not be printed: {why}")
    return MaterializeResult(
        metadata={
            "pdfs_printed": len(report.written),
            "mailed_notices_in_batch": len(notice_parts),
            "pdfs_unchanged": len(report.unchanged),
            "pdfs_removed": removed,
            "letters_not_ready_to_mail": int(not_ready),
            "batches": batches,
            "chromium": "not installed" if report.unavailable else "ok",
            "browser_start_s": round(report.browser_start_s, 2),
            "seconds_per_pdf": round(report.seconds_per_pdf, 3) if report.seconds_per_pdf else 0.0,
            "seconds": round(time.perf_counter() - started, 2),
            "summary": MetadataValue.text(report.summary()),
        }
    )
