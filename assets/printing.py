"""Letters on paper: every letter that is ready to mail, printed to PDF.

``letter_pdfs`` reads the letters the sewer and stormwater assets wrote to
``<dashboards>/letters/<area>/`` and prints each one whose layout says it is
ready to mail (``outfall.letters``: a configured letterhead, a recipient's
address) to ``<dashboards>/letters/<area>/pdf/<letter>.pdf``, all in one
headless Chromium session (``outfall.pdf``); a letter whose HTML did not change
is not printed again. Per area, ``ready_to_mail.pdf`` joins them in the order
of their file names. Without Chromium the run still succeeds with the HTML
letters and says in one line what to install.
"""

import sys
import time
from pathlib import Path

from dagster import AssetExecutionContext, MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_DASHBOARDS, outputs
from outfall.letters import letter_is_ready, read_letterhead
from outfall.pdf import join_pdfs, print_pdfs
from outfall.resources import OutfallSettings

AREAS = ("sewer", "stormwater")
PDF_FOLDER = "pdf"
BATCH = "ready_to_mail.pdf"


def _say(line: str) -> None:
    """One plain line for the person running Outfall (the command line shows stderr)."""
    print(f"outfall: {line}", file=sys.stderr)


@asset(
    group_name=GROUP_DASHBOARDS,
    kinds={"pdf"},
    deps=["sewer_notices", "snc_publication", "grease_trap_status", "swppp_notices", "illicit_discharge_letters"],
    description="Every letter that is ready to mail (letterhead configured, recipient's address on file), "
                "printed to PDF beside its HTML (<dashboards>/letters/<area>/pdf/) with headless Chromium, "
                "plus one ready_to_mail.pdf per area; only letters whose HTML changed are printed again. "
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
    for area in AREAS:
        folder = paths.letters(area)
        letters = sorted(folder.glob("*.html")) if folder is not None and folder.is_dir() else []
        jobs = []
        for html_path in letters:
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
        parts = [pdf for _, pdf in jobs if pdf in keep]
        if parts:
            join_pdfs(parts, batch, titles=[p.stem for p in parts])
            batches += 1
        elif batch.exists():
            batch.unlink()
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
