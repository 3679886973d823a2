"""The input folder monitoring_requirements (contract 6.3) through its ingestion asset, in process: the
kept rows (parameters canonical, an unknown one kept as given, the frequency's spellings) and every
quarantine reason, with rows read = rows kept + rows quarantined."""

from __future__ import annotations

import datetime as dt

from assets.ingest import ingest_asset
from tests.conftest import materialize_town, query_warehouse as rows, write

D = dt.date

REQUIREMENTS = """
User_ID , Parameter,Frequency,Sample_Type,effective_from,effective_to,basis
IU-1,BOD5,Monthly,Composite,2026-01-01,,Permit SIU-1 part C
IU-1,oil and grease,Quarterly,GRAB,2026-01-15,2026-12-31,
IU-1,copper,semi-annual,,,,letter of 2026-02-03
IU-2,Total Suspended Solids,yearly,composite,2026-03-01,2026-03-01,
IU-2,TSS,weekly,composite,2026-01-01,,
IU-2,TSS,monthly,split,2026-01-01,,
IU-2,TSS,monthly,,2026-05-01,2026-04-30,
IU-2,,monthly,,2026-05-01,,
,TSS,annual,,2026-05-01,,
IU-3,pH,annual,grab,2026-13-01,,
IU-3,pH,,grab,2026-01-01,,
"""


def test_kept_rows_and_quarantine_reasons(tmp_path):
    data = tmp_path / "data"
    write(data, "monitoring_requirements/requirements.csv", REQUIREMENTS)
    wh = tmp_path / "w.duckdb"
    materialize_town([ingest_asset("monitoring_requirements")], data, wh, "2026-11-30")

    assert rows(
        wh,
        "SELECT user_id, parameter, frequency, sample_type, effective_from, effective_to, basis "
        "FROM monitoring_requirements ORDER BY source_row",
    ) == [
        ("IU-1", "BOD", "monthly", "composite", D(2026, 1, 1), None, "Permit SIU-1 part C"),
        ("IU-1", "FOG", "quarterly", "grab", D(2026, 1, 15), D(2026, 12, 31), None),
        ("IU-1", "copper", "semiannual", None, None, None, "letter of 2026-02-03"),  # kept as given
        ("IU-2", "TSS", "annual", "composite", D(2026, 3, 1), D(2026, 3, 1), None),  # one day: kept
    ]
    assert rows(
        wh,
        "SELECT row_number, reason FROM quarantine WHERE dataset = 'monitoring_requirements' "
        "ORDER BY row_number",
    ) == [
        (
            5,
            "frequency 'weekly' is not one of monthly, quarterly, semiannual, annual (calendar months, "
            "quarters, half-years, years)",
        ),
        (6, "sample_type 'split' is not one of composite, grab (or blank for either)"),
        (
            7,
            "effective_to 2026-04-30 is before effective_from 2026-05-01: the requirement would never be in "
            "effect; correct one of the two dates",
        ),
        (8, "missing required value for 'parameter'"),
        (9, "missing required value for 'user_id'"),
        (10, "'2026-13-01' in column 'effective_from' is not a date (expected YYYY-MM-DD)"),
        (11, "missing required value for 'frequency'"),
    ]
    assert rows(
        wh,
        "SELECT rows_read, rows_kept, rows_quarantined FROM ingested_files "
        "WHERE dataset = 'monitoring_requirements'",
    ) == [(11, 4, 7)]
