"""Letters on paper: every letter that is ready to mail, printed to PDF.

``letter_pdfs`` prints, in one headless Chromium session (``outfall.pdf``), to
``<dashboards>/letters/<area>/pdf/<letter>.pdf``:

- each monthly notice of violation (table ``notices``, contract 5.1) that is mailed and ready to
  send (a full mailing address, a configured letterhead); ``letters/mailed_notices.pdf`` joins
  them in mailing order (mailing day, kind, recipient, month). A draft gets no PDF;
- each other letter the sewer and stormwater assets wrote to ``<dashboards>/letters/<area>/``
  whose layout says it is ready to mail (``outfall.letters``); per area, ``ready_to_mail.pdf``
  joins them in the order of their file names.

A letter whose HTML did not change is not printed again. Without Chromium the run still succeeds
with the HTML letters and says in one line what to install.
"""

import sys
import time
from pathlib import Path

from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_DASHBOARDS, outputs, warehouse
from assets.notices import LETTER_PREFIX as NOTICE_PREFIX
from outfall.letters import letter_is_ready, read_letterhead
from outfall.pdf import join_pdfs, print_pdfs
from outfall.resources import OutfallSettings
from outfall.warehouse import sql

AREAS = ("sewer", "stormwater")
PDF_FOLDER = "pdf"
BATCH = "ready_to_mail.pdf"
NOTICES_BATCH = "mailed_notices.pdf"   # in <dashboards>/letters/
# The assets whose letters are printed: `outfall run` starts Chromium (outfall.pdf.warm) when the
# first of them starts, so that the browser is up by the time the letters are.
LETTER_SOURCES = ("notices", "sewer_notices", "snc_publication", "grease_trap_status", "swppp_notices",
                  "illicit_discharge_letters")


def _say(line: str) -> None:
    """One plain line for the person running Outfall (the command line shows stderr)."""
    print(f"outfall: {line}", file=sys.stderr)


@asset(
    group_name=GROUP_DASHBOARDS,
    kinds={"pdf"},
    deps=list(LETTER_SOURCES),
    description="Every mailed notice of violation that is ready to send, and every other letter ready to mail "
                "(letterhead configured, recipient's address on file), printed to PDF beside its HTML "
                "(<dashboards>/letters/<area>/pdf/) with headless Chromium; the mailed notices joined in mailing "
                "order (letters/mailed_notices.pdf) and the other letters in one ready_to_mail.pdf per area; "
                "only letters whose HTML changed are printed again. "
                "Without Chromium the HTML letters stand and the run says what to install.",
)
def letter_pdfs(context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    started = time.perf_counter()
    paths = outputs(duckdb, settings)
    if paths.dashboards is None:
        context.log.warning("in-memory warehouse and no dashboards folder: no letters to print")
        return MaterializeResult(metadata={"pdfs": 0})
    ready: dict[str, list[tuple[Path, Path]]] = {}
    not_ready = 0
    # The mailed notices ready to send, in mailing order (a draft or a notice not ready gets no PDF).
    with warehouse(duckdb) as con:
        mailed = con.execute(sql("select_notices_to_print")).fetchall()
    notice_jobs: list[tuple[Path, Path]] = []
    for _kind, _recipient, _period, _issued_on, letter in mailed:
        html_path = paths.dashboards / letter
        if html_path.is_file():
            notice_jobs.append((html_path, html_path.parent / PDF_FOLDER / f"{html_path.stem}.pdf"))
    for area in AREAS:
        folder = paths.letters(area)
        letters = sorted(folder.glob("*.html")) if folder is not None and folder.is_dir() else []
        jobs = [job for job in notice_jobs if job[0].parent == folder]
        for html_path in letters:
            if html_path.name.startswith(NOTICE_PREFIX):
                continue    # the notices: from the table above
            if letter_is_ready(html_path.read_text(encoding="utf-8", errors="replace")):
                jobs.append((html_path, html_path.parent / PDF_FOLDER / f"{html_path.stem}.pdf"))
            else:
                not_ready += 1
        ready[area] = jobs
    report = print_pdfs(job for jobs in ready.values() for job in jobs)
    printed = set(report.written) | set(report.unchanged)
    removed = batches = 0
    for area, jobs in ready.items():
        folder = paths.letters(area)
        if folder is None:
            continue
        keep = {pdf for _, pdf in jobs if pdf in printed}
        pdf_folder = folder / PDF_FOLDER
        for stale in sorted(pdf_folder.glob("*.pdf")) if pdf_folder.is_dir() else []:
            if stale not in keep:
                stale.unlink()
                removed += 1
        batch = folder / BATCH
        parts = [pdf for html, pdf in jobs if pdf in keep and not html.name.startswith(NOTICE_PREFIX)]
        if parts:
            join_pdfs(parts, batch, titles=[p.stem for p in parts])
            batches += 1
        elif batch.exists():
            batch.unlink()
    notices_batch = paths.dashboards / "letters" / NOTICES_BATCH
    notice_parts = [pdf for _, pdf in notice_jobs if pdf in printed]
    if notice_parts:
        join_pdfs(notice_parts, notices_batch, titles=[p.stem for p in notice_parts])
        batches += 1
    elif notices_batch.exists():
        notices_batch.unlink()
    if report.unavailable:
        _say(report.unavailable)
        context.log.warning(report.unavailable)
    if not_ready:
        problem = read_letterhead(settings.data_path()).problem
        why = problem or "each says why at its top"
        _say(f"{not_ready} letter{'s' if not_ready != 1 else ''} not ready to mail, written as HTML only "
             f"({why})")
    for html_path, why in report.failed:
        context.log.warning(f"{html_path.name} could not be printed: {why}")
    return MaterializeResult(metadata={
        "pdfs_printed": len(report.written),
        "mailed_notices_printed": len(notice_parts),
        "pdfs_unchanged": len(report.unchanged),
        "pdfs_removed": removed,
        "letters_not_ready_to_mail": not_ready,
        "batches": batches,
        "chromium": "not installed" if report.unavailable else "ok",
        "browser_start_s": round(report.browser_start_s, 2),
        "seconds_per_pdf": round(report.seconds_per_pdf, 3) if report.seconds_per_pdf else 0.0,
        "seconds": round(time.perf_counter() - started, 2),
        "summary": MetadataValue.text(report.summary()),
    })
