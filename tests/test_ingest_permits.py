"""The input folder permits (contract 8.2) through its ingestion asset, in process: the kept rows (a renewal,
a withdrawal, dates in either spelling) and every quarantine reason, with rows read = rows kept + rows
quarantined."""

from __future__ import annotations

import datetime as dt

from assets.ingest import ingest_asset
from tests.conftest import materialize_town, query_warehouse as rows, write

D = dt.date

PERMITS = """
User_ID , Permit_No,Effective_On,Expires_On,Issued_On,Withdrawn_Reason
IU-1,SIU-2026-001,2026-12-10,2031-12-09,2026-12-01,
IU-1,SIU-2021-001,10/1/2021,9/30/2026,,issued in error: superseded
IU-2,SIU-2026-002,2026-01-01,2026-01-01,,
IU-3,SIU-2026-003,2026-05-01,2026-04-30,,
IU-4,,2026-01-01,2030-12-31,,
,SIU-2026-005,2026-01-01,2030-12-31,,
IU-6,SIU-2026-006,,2030-12-31,,
IU-7,SIU-2026-007,2026-01-01,,,
IU-8,SIU-2026-008,2026-02-30,2030-12-31,,
"""


def test_kept_rows_and_quarantine_reasons(tmp_path):
    data = tmp_path / "data"
    write(data, "permits/permits.csv", PERMITS)
    wh = tmp_path / "w.duckdb"
    materialize_town([ingest_asset("permits")], data, wh, "2026-12-14")

    assert rows(
        wh,
        "SELECT user_id, permit_no, effective_on, expires_on, issued_on, withdrawn_reason FROM permits "
        "ORDER BY source_row",
    ) == [
        ("IU-1", "SIU-2026-001", D(2026, 12, 10), D(2031, 12, 9), D(2026, 12, 1), None),
        ("IU-1", "SIU-2021-001", D(2021, 10, 1), D(2026, 9, 30), None, "issued in error: superseded"),
        ("IU-2", "SIU-2026-002", D(2026, 1, 1), D(2026, 1, 1), None, None),  # one day: kept
    ]
    assert rows(
        wh, "SELECT row_number, reason FROM quarantine WHERE dataset = 'permits' ORDER BY row_number"
    ) == [
        (
            4,
            "expires_on 2026-04-30 is before effective_on 2026-05-01: the permit would never be in effect; "
            "correct one of the two dates",
        ),
        (5, "missing required value for 'permit_no'"),
        (6, "missing required value for 'user_id'"),
        (7, "missing required value for 'effective_on'"),
        (8, "missing required value for 'expires_on'"),
        (9, "'2026-02-30' in column 'effective_on' is not a date (expected YYYY-MM-DD)"),
    ]
    assert rows(
        wh, "SELECT rows_read, rows_kept, rows_quarantined FROM ingested_files WHERE dataset = 'permits'"
    ) == [(9, 3, 6)]
