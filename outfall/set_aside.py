"""Input rows kept by ingestion that an asset could not judge: table ``set_aside``, with a reason.

Three tables hold what could not be processed, and this is the middle one:

- ``quarantine`` (the contract's): rows ingestion refused (a value it cannot read, a required value
  missing); they are not in their input table;
- ``set_aside`` (here): rows ingestion kept that can only be judged against the rules or other
  tables, and were not (a case dated before its chapter took effect, a payment for a case that is not
  on file). One row per input row, with its file, row number and a reason a clerk can act on, marked
  ``judged_by`` = the asset's name (sql/ingest/create_set_aside_tables.sql). The row stays in its
  input table, so the ledger's balance (rows read = kept + quarantined) holds;
- ``not_judged`` (``assets.run.record_not_judged``): what an asset could not judge for want of a
  rule in effect on its day (a subject and a day, with the rules section), not an input row.

Each run replaces the asset's own rows (call inside the asset's transaction), so re-running never
duplicates them. The quarantine page lists them apart.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import duckdb
import pandas as pd

from outfall.warehouse import sql


@dataclass(frozen=True)
class SetAside:
    """One input row an asset could not judge."""

    dataset: str
    source_file: str | None
    row_number: int | None
    reason: str
    raw: dict[str, Any] | None = None


def _raw_text(raw: dict[str, Any] | None) -> str | None:
    if raw is None:
        return None
    return json.dumps(
        {k: (v.isoformat() if isinstance(v, (dt.date, dt.datetime)) else v) for k, v in raw.items()},
        ensure_ascii=False,
        default=str,
    )


def replace_set_aside(con: duckdb.DuckDBPyConnection, judged_by: str, rows: Iterable[SetAside]) -> int:
    """Replace the rows ``judged_by`` set aside on its previous run with ``rows``; returns their number."""
    con.execute(sql("delete_set_aside"), {"judged_by": judged_by}).fetchall()
    frame = pd.DataFrame(
        [
            {
                "dataset": r.dataset,
                "source_file": r.source_file,
                "row_number": None if r.row_number is None else int(r.row_number),
                "reason": r.reason,
                "raw": _raw_text(r.raw),
            }
            for r in rows
        ],
        columns=["dataset", "source_file", "row_number", "reason", "raw"],
    )
    if frame.empty:
        return 0
    frame["row_number"] = frame["row_number"].astype("Int64")
    con.register("_judged", frame)
    try:
        con.execute(sql("insert_set_aside"), {"judged_by": judged_by}).fetchall()
    finally:
        con.unregister("_judged")
    return len(frame)
