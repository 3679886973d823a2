"""Water and sewer inspection fees (contract 5.5, Woodbury Code ch. 301) materialized in process, and their
yearly totals in the clerk's register workbook."""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal
from pathlib import Path

import duckdb
import openpyxl
from dagster_duckdb import DuckDBResource

from assets import ingest as ingest_assets
from assets.billing import fees
from outfall.register_export import register_xlsx_bytes
from outfall.resources import OutfallSettings
from outfall.rules import load_rules
from tests.conftest import materialize, write

PERMITS = """
permit_id,parcel_id,use,in_mall_or_business_park,water,sewer,applied_on
CP-1,P-1,single_family,,true,true,2026-03-02
CP-2,P-2,commercial,false,true,false,2026-04-10
CP-3,P-3,commercial,true,true,true,2026-05-05
CP-4,P-4,single_family,,false,false,2026-06-01
CP-5,P-5,industrial,,true,true,2026-06-02
CP-6,P-6,Single-Family,,true,,1995-06-01
CP-7,P-7,COMMERCIAL,,,true,2025-05-01
"""


def run(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    write(data, "connection_permits/permits.csv", PERMITS)
    wh = tmp_path / "w.duckdb"
    result = materialize(
        [ingest_assets.ingest_asset("connection_permits"), fees.inspection_fees],
        resources={
            "duckdb": DuckDBResource(database=str(wh)),
            "settings": OutfallSettings(data_dir=str(data), as_of="2026-11-30"),
        },
    )
    assert result.success
    return wh


def test_fees_of_each_permit(tmp_path):
    wh = run(tmp_path)
    con = duckdb.connect(str(wh), read_only=True)
    got = {
        r[0]: r[1:]
        for r in con.execute(
            "SELECT permit_id, water_fee_usd, sewer_fee_usd, total_usd, rule, year FROM inspection_fees"
        ).fetchall()
    }
    D = Decimal
    assert {k: v[:3] for k, v in got.items()} == {
        "CP-1": (D("300.00"), D("300.00"), D("600.00")),  # schedule A: both inspections
        "CP-2": (D("400.00"), D("0.00"), D("400.00")),  # schedule B: water only
        "CP-3": (None, None, None),  # in a mall: not in the schedule
        "CP-4": (D("0.00"), D("0.00"), D("0.00")),  # neither inspection asked for
        "CP-6": (None, None, None),  # applied before the schedule was in effect
        "CP-7": (D("0.00"), D("400.00"), D("400.00")),  # a blank mall flag is "not in one"
    }
    assert "shopping mall or business park" in got["CP-3"][3]
    assert "schedule A" in got["CP-1"][3] and "ch. 301" in got["CP-1"][3]
    assert "No water or sewer inspection was asked for" in got["CP-4"][3]
    assert got["CP-7"][4] == 2025
    (reason,) = con.execute("SELECT reason FROM quarantine WHERE dataset = 'connection_permits'").fetchall()[
        0
    ]
    assert reason == "use 'industrial' is not one of single_family, commercial"
    types = dict(
        con.execute(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_name = 'inspection_fees'"
        ).fetchall()
    )
    assert types["total_usd"] == "DECIMAL(12,2)"
    con.close()


def test_yearly_totals_in_the_register_workbook(tmp_path):
    wh = run(tmp_path)
    con = duckdb.connect(str(wh), read_only=True)
    data = register_xlsx_bytes(con, 2026)
    none_that_year = register_xlsx_bytes(con, 2031, rules=load_rules("woodbury"))
    con.close()
    wb = openpyxl.load_workbook(io.BytesIO(data))
    assert "Inspection fees" in wb.sheetnames
    ws = wb["Inspection fees"]
    rows = list(ws.iter_rows(min_row=2, values_only=True))
    assert [r[0] for r in rows[:-1]] == ["CP-1", "CP-2", "CP-3", "CP-4"]  # 2026 only, by day applied
    total = rows[-1]
    # water 300 + 400 + 0 = 700; sewer 300 + 0 + 0 = 300; CP-3 has no fee: formulas, their values cached
    assert total[0] == "Total, 4 permits" and total[6:9] == (
        "=SUBTOTAL(9,G2:G5)",
        "=SUBTOTAL(9,H2:H5)",
        "=SUBTOTAL(9,I2:I5)",
    )
    shown = list(
        openpyxl.load_workbook(io.BytesIO(data), data_only=True)["Inspection fees"].iter_rows(
            min_row=2, values_only=True
        )
    )[-1]
    assert shown[6:9] == (700, 300, 1000)
    assert total[9] == "1 not in the fee schedule"
    assert rows[0][3] == dt.datetime(2026, 3, 2)
    # A year no permit was applied for still has the sheet, with one sentence saying so.
    ws = openpyxl.load_workbook(io.BytesIO(none_that_year))["Inspection fees"]
    assert [[c for c in r if c is not None] for r in ws.iter_rows(values_only=True)] == [
        ["Inspection fees"],
        [
            "No connection permit applied for in 2031 has a water or sewer inspection fee (Woodbury Code "
            "ch. 301)."
        ],
    ]


def test_empty_without_inputs(tmp_path):
    wh = tmp_path / "w.duckdb"
    result = materialize(
        [fees.inspection_fees],
        resources={
            "duckdb": DuckDBResource(database=str(wh)),
            "settings": OutfallSettings(data_dir=str(tmp_path / "none"), as_of="2026-11-30"),
        },
    )
    assert result.success
    con = duckdb.connect(str(wh), read_only=True)
    cols = [
        r[0]
        for r in con.execute(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_name = 'inspection_fees' ORDER BY ordinal_position"
        ).fetchall()
    ]
    assert cols[:6] == ["permit_id", "parcel_id", "water_fee_usd", "sewer_fee_usd", "total_usd", "rule"]
    assert con.execute("SELECT count(*) FROM inspection_fees").fetchall() == [(0,)]
    con.close()
