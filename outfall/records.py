"""The record of mailed documents (contract 6.2): the chain of SHA-256 values and its check.

Every document written for a mailing is a row of ``documents_issued`` with the SHA-256 of its file
(the PDF where one was printed, else the HTML; the HTML's own too). The rows form a chain in the
order of issued_on then document_id: prev_sha256 is the previous row's chain value (empty for the
first) and chain_sha256 the SHA-256 of prev_sha256 + sha256 + document_id
(``outfall.law.notices.chain``). ``verify_records`` reads every file again and walks the chain;
``outfall verify`` prints its first problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb

from outfall.ingest.as_of import DAY
from outfall.law import notices as law
from outfall.warehouse import as_loaded, sql

# The record as a run as of a day reads it (outfall/ingest/as_of.py): the documents issued on or before the
# day, and their notices' items. Every row stays in the tables, and no run as of an earlier day writes,
# rewrites or removes a file they list (``files_on_record`` reads them all).
AS_OF_RECORDS = (
    ("documents_issued", f"issued_on <= {DAY}"),
    (
        "notice_items_issued",
        f"document_id IN (SELECT d.document_id FROM main.documents_issued AS d WHERE d.issued_on <= {DAY})",
    ),
)


def _records(con, name: str) -> list[dict]:
    cursor = con.execute(sql(name))
    cols = [d[0] for d in cursor.description]
    return [dict(zip(cols, row)) for row in cursor.fetchall()]


def sha256_of_file(path: Path) -> str | None:
    return law.sha256_hex(path.read_bytes()) if path.is_file() else None


@dataclass(frozen=True)
class Problem:
    document_id: str
    what: str

    def line(self) -> str:
        return f"document {self.document_id}: {self.what}"


def files_on_record(con: duckdb.DuckDBPyConnection) -> set[str]:
    """Every file the record lists (the HTML and the PDF of each document issued, relative to the
    dashboards folder), whatever day ``con`` judges by: no run writes, rewrites or removes one."""
    with as_loaded(con):
        return {f for (f,) in con.execute(sql("select_files_on_record")).fetchall() if f}


def rechain(con) -> int:
    """Set prev_sha256 and chain_sha256 of every record in the order of issued_on then document_id; returns
    the
    rows whose chain values changed (a document dated before others already recorded)."""
    rows = con.execute(sql("select_documents_chain")).fetchall()
    chained = law.chain([(issued_on, document_id, sha) for document_id, issued_on, sha, _p, _c in rows])
    old = {document_id: (prev, value) for document_id, _i, _s, prev, value in rows}
    changed = [
        (prev, value, document_id)
        for document_id, _sha, prev, value in chained
        if old.get(document_id) != (prev, value)
    ]
    for prev, value, document_id in changed:
        con.execute(
            sql("update_document_chain"), {"prev": prev, "chain": value, "document_id": document_id}
        ).fetchall()
    return len(changed)


def verify_records(con: duckdb.DuckDBPyConnection, dashboards: Path) -> list[Problem]:
    """What does not match in the record of mailed documents: each file's bytes against its SHA-256, then the
    chain; in the chain's order, so the first problem names the first document that differs."""
    problems: list[Problem] = []
    expected = ""
    for r in _records(con, "select_documents_to_verify"):
        doc = r["document_id"]
        for rel, sha in ((r["file"], r["sha256"]), (r["html_file"], r["html_sha256"])):
            if not rel or rel == r["file"] and sha is None:
                continue
            path = dashboards / rel
            if not path.is_file():
                problems.append(Problem(doc, f"its file {rel} is missing from {dashboards}"))
            elif sha256_of_file(path) != sha:
                problems.append(
                    Problem(
                        doc,
                        f"its file {rel} has changed since it was issued on "
                        f"{r['issued_on']:%Y-%m-%d} (SHA-256 {sha256_of_file(path)[:12]}..., recorded "
                        f"{str(sha)[:12]}...)",
                    )
                )
        if (r["prev_sha256"] or "") != expected:
            problems.append(Problem(doc, "its link to the document before it in the chain does not match"))
        value = law.chain_value(r["prev_sha256"] or "", r["sha256"] or "", doc)
        if r["chain_sha256"] != value:
            problems.append(
                Problem(doc, "its chain value does not match its file's hash and the link before it")
            )
        expected = r["chain_sha256"] or ""
    return problems
