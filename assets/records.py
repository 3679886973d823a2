"""Every letter a run writes, and the record of the ones written for a mailing.

- ``letters`` (contract 6.5): one row per letter written, whatever asset wrote it (monthly notices,
  grease orders, stop-work orders, illicit discharge letters, the annual list of users in significant
  noncompliance), whether it is ready to mail and, if not, what is missing in words. One address
  rule for every letter (``outfall.letters.address_problems``); a letter that is not ready is in no
  batch to print or mail (``assets/printing.py`` reads this table).
- ``documents_issued`` (contract 6.2, 7.3): one row per document written for a mailing (a mailed notice,
  a mailed grease-trap or stop-work order, an illicit discharge letter dated by its notice or cost
  notice), ready to mail or not (a letter not ready is recorded with ``ready`` false and its reason,
  never written again), recorded once its files are written (the PDF where Chromium
  printed one, else the HTML) and chained by SHA-256: prev_sha256 is the previous row's chain value
  in the order of issued_on then document_id, chain_sha256 the SHA-256 of prev_sha256 + sha256 +
  document_id. Once recorded, no run rewrites or deletes the files; ``outfall verify`` checks them.
- ``address_conflicts``: recipients whose ZIP code differs between two input files.
"""

import datetime as dt
from pathlib import Path

import pandas as pd
from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetExecutionContext,
    MaterializeResult,
    MetadataValue,
    asset,
)
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_DASHBOARDS, WAREHOUSE_POOL, outputs, table_check, table_result, warehouse
from outfall.letters import parse_address_block
from outfall.pdf import recorded_source, source_digest
from outfall.records import rechain, sha256_of_file, verify_records
from outfall.resources import OutfallSettings
from outfall.warehouse import replace_rows, sql, transaction

LETTER_SOURCES = (
    "notices",
    "grease_trap_status",
    "swppp_notices",
    "illicit_discharge_letters",
    "snc_publication",
)
PDF_FOLDER = "pdf"


def _records(con, name: str, params: dict | None = None) -> list[dict]:
    cursor = con.execute(sql(name), params or {})
    cols = [d[0] for d in cursor.description]
    return [dict(zip(cols, row)) for row in cursor.fetchall()]


def pdf_of(html: Path) -> Path:
    """Where a letter's PDF is printed: ``<its folder>/pdf/<its name>.pdf``."""
    return html.parent / PDF_FOLDER / f"{html.stem}.pdf"


# ------------------------------------------------------------------ address conflicts


def _zip5(value: object) -> str | None:
    text = str(value or "").strip()
    return text[:5] if len(text) >= 5 and text[:5].isdigit() else None


def _name_key(value: object) -> str:
    return " ".join(str(value or "").lower().replace(",", " ").replace(".", " ").split())


def address_conflicts(con) -> list[dict]:
    """Recipients named the same in two input files with different ZIP codes (the first five digits)."""
    seen: dict[str, list[tuple[str, str, str, str]]] = {}
    for r in _records(con, "select_recipient_addresses"):
        zip_code = _zip5(r["zip"]) or _zip5(parse_address_block(r["address_text"])[3])
        key = _name_key(r["name"])
        if zip_code and key:
            seen.setdefault(key, []).append(
                (r["source"], str(r["recipient_id"] or ""), zip_code, str(r["name"]))
            )
    out = []
    for entries in seen.values():
        first = entries[0]
        for other in entries[1:]:
            if other[2] != first[2]:
                out.append(
                    {
                        "recipient_name": first[3],
                        "recipient_id": first[1] or other[1],
                        "source": first[0],
                        "zip": first[2],
                        "other_source": other[0],
                        "other_zip": other[2],
                        "detail": f"{first[3]}: ZIP code {first[2]} in {first[0]}, {other[2]} in {other[0]}; "
                        f"correct the wrong one",
                    }
                )
    return out


# ------------------------------------------------------------------ the assets


@asset(
    pool=WAREHOUSE_POOL,
    group_name=GROUP_DASHBOARDS,
    kinds={"duckdb"},
    deps=list(LETTER_SOURCES) + ["industrial_users", "sites", "illicit_discharges"],
    description="Every letter written (notices of violation, grease trap orders, stop-work orders, illicit "
    "discharge letters, the annual list of users in significant noncompliance): whether it is ready to "
    "mail and, if not, what is missing. A letter is ready only when its recipient has a name, a street "
    "address, a city, a state and a five- or nine-digit ZIP code. Also the recipients whose ZIP code "
    "differs between two input files (table address_conflicts).",
)
def letters(duckdb: DuckDBResource, settings: OutfallSettings) -> MaterializeResult:
    with warehouse(duckdb) as con:
        rows = _records(con, "select_letters")
        conflicts = address_conflicts(con)
        with transaction(con):
            replace_rows(con, "letters", pd.DataFrame(rows))
            replace_rows(con, "address_conflicts", pd.DataFrame(conflicts))
        kinds: dict[str, int] = {}
        for r in rows:
            kinds[f"{r['letter_kind']} {'ready' if r['ready'] else 'not ready'}"] = (
                kinds.get(f"{r['letter_kind']} {'ready' if r['ready'] else 'not ready'}", 0) + 1
            )
        return table_result(
            con,
            "letters",
            not_ready=sum(1 for r in rows if not r["ready"]),
            address_conflicts=len(conflicts),
            by_kind=MetadataValue.json(dict(sorted(kinds.items()))),
        )


def new_records(con, dashboards: Path) -> list[dict]:
    """The documents written for a mailing that are not yet on record: their file (the PDF when one was
    printed
    from this very HTML, else the HTML) and its hash."""
    out = []
    now = dt.datetime.now(dt.UTC)
    for r in _records(con, "select_letters_to_record"):
        html = dashboards / r["letter"]
        if not html.is_file():
            continue
        pdf = pdf_of(html)
        printed = pdf.is_file() and recorded_source(pdf) == source_digest(html)
        file = pdf if printed else html
        out.append(
            {
                "document_id": r["document_id"],
                "letter_kind": r["letter_kind"],
                "recipient_id": r["recipient_id"],
                "issued_on": r["dated"],
                "file": file.relative_to(dashboards).as_posix(),
                "sha256": sha256_of_file(file),
                "html_file": r["letter"],
                "html_sha256": sha256_of_file(html),
                "area": r["area"],
                "period": r["period"],
                "certified_mail_no": r["certified_mail_no"],
                "correct_within_days": r["correct_within_days"],
                "correct_by": r["correct_by"],
                "ready": r["ready"],
                "not_ready_reason": r["reason"],
                "recorded_at": now,
            }
        )
    return out


@asset(
    pool=WAREHOUSE_POOL,
    group_name=GROUP_DASHBOARDS,
    kinds={"duckdb"},
    deps=["letters", "letter_pdfs"],
    description="The record of every document written for a mailing (mailed notices of violation, mailed "
    "grease-trap and stop-work orders, illicit discharge letters dated by their notice), ready to mail or "
    "not: its file (the PDF where one was printed) and SHA-256, "
    "chained in the order of issued_on then document number. Written once; the files are never "
    "rewritten. `outfall verify` checks every file and the chain.",
)
def documents_issued(
    context: AssetExecutionContext, duckdb: DuckDBResource, settings: OutfallSettings
) -> MaterializeResult:
    paths = outputs(duckdb, settings)
    with warehouse(duckdb) as con:
        new = new_records(con, paths.dashboards) if paths.dashboards is not None else []
        with transaction(con):
            if new:
                con.register("_new_records", pd.DataFrame(new))
                con.execute(sql("insert_documents_issued")).fetchall()
                con.unregister("_new_records")
            moved = rechain(con)
            # the letters table says `recorded` as the record now stands (written before it, it could not)
            con.execute(sql("update_letters_recorded")).fetchall()
        if paths.dashboards is None:
            context.log.warning(
                "in-memory warehouse and no dashboards folder: no letter was written, none recorded"
            )
        return table_result(con, "documents_issued", recorded_now=len(new), chain_values_moved=moved)


@table_check(
    asset=documents_issued,
    description="Every mailed document's files still have the bytes recorded "
    "when they were issued, and the chain of records is unbroken. Threshold: no document that differs. "
    "Severity ERROR.",
)
def check_integrity_documents_issued(duckdb: DuckDBResource, settings: OutfallSettings) -> AssetCheckResult:
    paths = outputs(duckdb, settings)
    with warehouse(duckdb) as con:
        problems = verify_records(con, paths.dashboards) if paths.dashboards is not None else []
        total = con.execute("SELECT count(*) FROM documents_issued").fetchall()[0][0]
    return AssetCheckResult(
        passed=not problems,
        severity=AssetCheckSeverity.ERROR,
        metadata={
            "documents": int(total),
            "problems": len(problems),
            "first": problems[0].line() if problems else "none",
        },
    )
