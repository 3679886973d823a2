"""`outfall run` end to end with the folders of contract section 5 (illicit discharges and their
payments, practices, connection permits): every table of the section exists with the contract's
columns, empty without its inputs; with them, the run fills them, sets aside what it cannot judge,
and a second run on the same folder changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import query_warehouse as query, run_cli, small_town, write

CONTRACT_COLUMNS = {
    "illicit_discharge_deadlines": ["case_id", "obligation", "due", "satisfied_on", "status", "rule"],
    "illicit_discharge_charges": [
        "case_id",
        "principal_usd",
        "installments",
        "installment_usd",
        "last_installment_usd",
        "interest_from",
        "interest_usd",
        "balance_usd",
        "max_penalty_usd",
    ],
    "smp_findings": ["practice_id", "site_id", "finding", "rule", "due", "status"],
    "inspection_fees": ["permit_id", "parcel_id", "water_fee_usd", "sewer_fee_usd", "total_usd", "rule"],
    "pretreatment_annual_report": [
        "user_id",
        "year",
        "samples",
        "violations",
        "statistic_violations",
        "slugs",
        "snc",
        "notices_mailed",
    ],
    "statistic_violations": [
        "user_id",
        "parameter",
        "statistic",
        "period_start",
        "period_end",
        "value",
        "limit_value",
        "unit",
    ],
}
STAMP = {"quarantine": "quarantined_at"}  # when, not what
OUTPUTS = [
    "illicit_discharge_deadlines",
    "illicit_discharge_charges",
    "smp_findings",
    "inspection_fees",
    "pretreatment_annual_report",
    "snc_determinations",
    "discharges_without_permit",
    "quarantine",
    "set_aside",
]


def columns(db: Path, table: str) -> list[str]:
    return [
        r[0]
        for r in query(
            db,
            f"SELECT column_name FROM information_schema.columns WHERE table_name = "
            f"'{table}' ORDER BY ordinal_position",
        )
    ]


@pytest.mark.slow  # `outfall run` end to end
def test_every_table_of_the_section_exists_empty_without_inputs(tmp_path):
    data = tmp_path / "data"
    write(data, "sites/s.csv", "site_id,jurisdiction,disturbed_acres,construction_start,rain_gauge_id\n")
    db = tmp_path / "w.duckdb"
    result = run_cli("run", "--data", str(data), "--warehouse", str(db), "--as-of", "2026-11-30")
    assert result.returncode == 0, result.stderr
    for table, cols in CONTRACT_COLUMNS.items():
        assert columns(db, table)[: len(cols)] == cols or set(cols) <= set(columns(db, table)), table
        assert query(db, f"SELECT count(*) FROM {table}") == [(0,)], table
    assert columns(db, "pretreatment_annual_report") == CONTRACT_COLUMNS["pretreatment_annual_report"]
    assert "basis" in columns(db, "snc_determinations")


@pytest.mark.slow
def test_run_with_the_section5_folders_twice(tmp_path):
    data = small_town(tmp_path / "data")
    write(
        data,
        "illicit_discharges/c.csv",
        """
        case_id,premises,discovered_on,hazardous,notified_on,nov_on,abatement_due,abated_on,abated_by,abatement_cost_usd
        IC-1,P-2,2026-05-22,false,2026-05-27,2026-06-01,2026-06-15,2026-06-20,town,1200
        IC-2,2 Elm,2001-01-01,false,,,,,,
        """,
    )
    write(data, "illicit_payments/p.csv", "case_id,paid_on,amount_usd\nIC-1,2026-06-25,100\n")
    write(data, "smp_practices/p.csv", "practice_id,site_id,final_plan_approved_on\nSMP-1,W-1,2026-05-01\n")
    write(
        data,
        "connection_permits/p.csv",
        "permit_id,parcel_id,use,water,sewer,applied_on\n"
        "CP-1,P-1,single family,true,true,2026-03-01\n"
        "CP-2,P-2,warehouse,true,true,2026-03-01\n",
    )
    db = tmp_path / "w.duckdb"
    first = run_cli("run", "--data", str(data), "--warehouse", str(db), "--as-of", "2026-06-30")
    assert first.returncode == 0, first.stderr
    before = {
        t: query(db, f"SELECT * EXCLUDE ({STAMP[t]}) FROM {t} ORDER BY ALL")
        if t in STAMP
        else query(db, f"SELECT * FROM {t} ORDER BY ALL")
        for t in OUTPUTS
    }
    second = run_cli("run", "--data", str(data), "--warehouse", str(db), "--as-of", "2026-06-30")
    assert second.returncode == 0, second.stderr
    after = {
        t: query(db, f"SELECT * EXCLUDE ({STAMP[t]}) FROM {t} ORDER BY ALL")
        if t in STAMP
        else query(db, f"SELECT * FROM {t} ORDER BY ALL")
        for t in OUTPUTS
    }
    assert after == before
    # Friday May 22: notice due Tuesday May 26 (Memorial Day), given May 27: late by a day
    assert ("IC-1", "notify_town", "late") in query(
        db, "SELECT case_id, obligation, status FROM illicit_discharge_deadlines"
    )
    assert query(db, "SELECT principal_usd, installments FROM illicit_discharge_charges")[0][1] == 12
    assert query(db, "SELECT permit_id, total_usd FROM inspection_fees") == [("CP-1", 600)]
    reasons = [
        r[0]
        for r in query(
            db,
            "SELECT reason FROM quarantine WHERE dataset IN "
            "('connection_permits', 'illicit_discharges') ORDER BY dataset",
        )
    ]
    assert reasons == ["use 'warehouse' is not one of single_family, commercial"]
    # a case before ch. 185 took effect is kept but set aside, not quarantined: rows read = kept + quarantined
    aside = query(db, "SELECT dataset, reason FROM set_aside")
    assert len(aside) == 1 and aside[0][0] == "illicit_discharges"
    assert "before the rules of Woodbury Code ch. 185" in aside[0][1]
    assert query(
        db,
        "SELECT rows_read, rows_kept, rows_quarantined FROM ingested_files "
        "WHERE dataset = 'illicit_discharges'",
    ) == [(2, 2, 0)]
    # S-1 .. S-9 of the small town are 2026 samples of IU-1 and IU-2
    assert {r[0] for r in query(db, "SELECT user_id FROM pretreatment_annual_report")} == {"IU-1", "IU-2"}
    assert query(db, "SELECT count(*) FROM smp_findings WHERE finding = 'maintenance_agreement'") == [(1,)]
