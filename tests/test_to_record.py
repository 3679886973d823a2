"""exports/to_record.xlsx: what waits for a person's answer, prefilled, filled in Excel as a clerk
would, saved back into the input folders and read as any input file: a draft notice becomes mailed, dated as
filled; a row left blank records nothing and is counted as left blank; a re-run changes nothing."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import openpyxl
import pytest
from dagster_duckdb import DuckDBResource

from assets.ingest import ingest_asset
from assets.notices import notices
from assets.sewer.enforcement import obligations
from assets.sewer.permits import user_permits
from assets.to_record import FILE, SHEETS, to_record
from outfall.demo.generate import write_letterhead
from outfall.ingest.datasets import DATASETS, PREFILLED_COLUMN
from outfall.ingest.parse import clean_header
from outfall.resources import OutfallSettings
from tests.conftest import materialize
from tests.test_notices import MAX, finding, insert, new_warehouse, query, run, violation

D = dt.date


@pytest.fixture
def town(tmp_path):
    """A warehouse with two draft notices, two inspections coming due, two testing periods (one open) and a
    permit to renew."""
    db = new_warehouse(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    write_letterhead(data)
    insert(
        db,
        "industrial_users",
        [
            {
                "user_id": "IU-1",
                "name": "Acme Plating",
                "district": "consolidated",
                "address": "1 Mill Rd",
                "city": "Central Valley",
                "state": "NY",
                "zip": "10917",
                # expires within the Town's 90 days of June 30: to renew (contract 8.2)
                "permit_no": "P-1",
                "permit_effective": D(2021, 7, 16),
                "permit_expires": D(2026, 7, 15),
            }
        ],
    )
    insert(
        db,
        "sites",
        [
            {
                "site_id": "S-1",
                "jurisdiction": "bellport",
                "disturbed_acres": 6.0,
                "construction_start": D(2026, 1, 5),
                "rain_gauge_id": "G",
                "name": "Harbor Lots",
                "address": "3 Bay Ave",
                "applicant": "Shore Builders",
                "city": "Bellport",
                "state": "NY",
                "zip": "11713",
            }
        ],
    )
    insert(db, "discharge_violations", [violation("IU-1", "A1", "2026-03-03 10:00")])
    insert(db, "swppp_inspection_findings", [finding("S-1", D(2026, 4, 3))])
    insert(
        db,
        "swppp_upcoming",
        [
            {
                "site_id": "S-1",
                "jurisdiction": "bellport",
                "site_name": "Harbor Lots",
                "requirement": "weekly",
                "trigger_date": D(2026, 6, 22),
                "due_by": D(2026, 6, 29),
                "days_until_due": -1,
                "status": "overdue",
                "detail": "weekly inspection: 7 days after the previous inspection on 2026-06-22",
                "rule": "ch. 21",
            },
            {
                "site_id": "S-1",
                "jurisdiction": "bellport",
                "site_name": "Harbor Lots",
                "requirement": "storm",
                "trigger_date": D(2026, 6, 30),
                "due_by": D(2026, 7, 1),
                "days_until_due": 1,
                "status": "due_tomorrow",
                "detail": "storm inspection: 0.60 in of rain on 2026-06-30",
                "rule": "ch. 21",
            },
        ],
    )
    testing = {
        "user_id": "IU-1",
        "name": "Acme Plating",
        "frequency": "quarterly",
        "rule": "ch. 253 Part 2",
        "as_of": D(2026, 6, 30),
    }
    insert(
        db,
        "required_testing",
        [
            {
                **testing,
                "parameter": "BOD",
                "sample_type": "composite",
                "period_start": D(2026, 4, 1),
                "period_end": D(2026, 6, 30),
                "samples": 0,
                "status": "open",
            },
            {
                **testing,
                "parameter": "TSS",
                "sample_type": None,
                "period_start": D(2026, 1, 1),
                "period_end": D(2026, 3, 31),
                "samples": 2,
                "status": "met",
            },
        ],
    )
    return db, data


def rows_of(ws) -> list[dict]:
    header = [c.value for c in ws[1]]
    return [dict(zip(header, (c.value for c in row))) for row in ws.iter_rows(min_row=2)]


def test_each_open_item_is_a_prefilled_row_of_its_folders_sheet(town, tmp_path):
    db, data = town
    run(db, data, [ingest_asset("notices_mailed"), notices, to_record])
    wb = openpyxl.load_workbook(tmp_path / "exports" / FILE)
    assert wb.sheetnames == [
        "Read me",
        "notices_mailed",
        "inspections",
        "report_deliveries",
        "lab_results",
        "permits",
    ]
    mailed = rows_of(wb["notices_mailed"])
    assert [
        (r["kind"], r["recipient_id"], r["period"], r["mailed_on"], r[PREFILLED_COLUMN]) for r in mailed
    ] == [("sewer", "IU-1", "2026-03", None, "yes"), ("stormwater", "S-1", "2026-04", None, "yes")]
    assert mailed[0]["recipient name"] == "Acme Plating" and mailed[0]["violations"] == 1
    assert mailed[0]["letter file"] == str(
        tmp_path / "dashboards" / "letters" / "sewer" / "notice_IU-1_2026-03.html"
    )
    assert [
        (r["site_id"], r["kind"], r["inspected_at"], r["status"]) for r in rows_of(wb["inspections"])
    ] == [("S-1", "routine", None, "overdue"), ("S-1", "storm", None, "due tomorrow")]
    assert [
        (r["user_id"], r["parameter"], r["sample_type"], r["result"]) for r in rows_of(wb["lab_results"])
    ] == [("IU-1", "BOD", "composite", None)]  # the met period is not listed
    ws = wb["notices_mailed"]
    assert ws.column_dimensions[ws["H1"].column_letter].hidden is False
    marker = next(c for c in ws[1] if c.value == PREFILLED_COLUMN)
    assert ws.column_dimensions[marker.column_letter].hidden
    checks = {str(v.sqref): v for v in ws.data_validations.dataValidation}
    assert checks["D2:D1048576"].type == "date"  # mailed_on
    assert (checks["F2"].type, checks["F2"].formula1, checks["F2"].formula2) == ("whole", "0", str(MAX))
    # the stormwater notice's days to correct: required on its row, marked so (contract 7.2)
    assert (checks["F3"].type, checks["F3"].operator, checks["F3"].allow_blank) == (
        "whole",
        "greaterThanOrEqual",
        False,
    )
    assert ws["F3"].fill.fgColor.rgb.endswith("FFF2CC") and not ws["F2"].fill.fgColor.rgb.endswith("FFF2CC")
    assert checks["F4:F1048576"].type == "whole"
    note = ws["F1"].comment.text
    assert (
        note.startswith(
            "correct_within_days: days to correct from the mailing day: required for a stormwater notice"
        )
        and "may be left blank" not in note
    )
    assert "required" in ws["A1"].comment.text and "not read" in ws["H1"].comment.text


def test_a_text_that_looks_like_a_formula_stays_text(town, tmp_path):
    db, data = town
    with duckdb.connect(str(db)) as con:
        con.execute('UPDATE swppp_upcoming SET site_name = \'=HYPERLINK("http://x","y")\'').fetchall()
    run(db, data, [to_record])
    ws = openpyxl.load_workbook(tmp_path / "exports" / FILE)["inspections"]
    cell = next(c for c in ws[2] if str(c.value).startswith("=HYPERLINK"))
    assert cell.data_type == "s" and cell.quotePrefix


def test_helper_columns_are_never_a_column_the_folder_reads():
    for sheet in SHEETS:
        read = {c.name for c in DATASETS[sheet.dataset].columns}
        assert not {clean_header(h) for h, _, _ in sheet.helpers} & (read | {clean_header(PREFILLED_COLUMN)})
        assert set(sheet.prefilled) <= read


def fill(ws, row: int, **answers) -> None:
    """Type ``answers`` (column -> value) into ``row``, each under its header."""
    header = [c.value for c in ws[1]]
    for name, value in answers.items():
        ws.cell(row=row, column=header.index(name) + 1, value=value)


def fill_and_save(path: Path, data: Path) -> None:
    """As a clerk, an officer and the superintendent would: answer some rows, leave one, save the workbook
    into each folder."""
    wb = openpyxl.load_workbook(path)
    fill(
        wb["notices_mailed"], 2, mailed_on=dt.datetime(2026, 6, 2), certified_mail_no="7001 2222"
    )  # days: blank
    fill(wb["inspections"], 2, inspected_at=dt.datetime(2026, 6, 29, 10, 15), inspector="J. Park")
    wb["inspections"].delete_rows(3)  # the storm one is not due yet
    fill(
        wb["lab_results"],
        2,
        sample_id="L-77",
        collected_at=dt.datetime(2026, 6, 10, 8),
        result=180,
        unit="mg/L",
    )
    for folder in ("notices_mailed", "inspections", "lab_results"):
        (data / folder).mkdir(exist_ok=True)
        wb.save(data / folder / FILE)


def test_a_filled_workbook_saved_back_records_what_happened(town, tmp_path):
    db, data = town
    run(db, data, [ingest_asset("notices_mailed"), notices, to_record])
    fill_and_save(tmp_path / "exports" / FILE, data)
    assets = [
        ingest_asset("notices_mailed"),
        ingest_asset("inspections"),
        ingest_asset("lab_results"),
        notices,
        to_record,
    ]
    run(db, data, assets)
    got = query(
        db,
        "SELECT kind, recipient_id, period, status, issued_on, correct_by, certified_mail_no "
        "FROM notices ORDER BY 1",
    )
    assert got == [
        (
            "sewer",
            "IU-1",
            "2026-03",
            "mailed",
            D(2026, 6, 2),
            D(2026, 6, 2) + dt.timedelta(days=MAX),
            "7001 2222",
        ),
        ("stormwater", "S-1", "2026-04", "draft", None, None, None),
    ]
    assert query(db, "SELECT dataset, source_file, row_number, reason FROM quarantine ORDER BY 1") == []
    left_blank = "SELECT dataset, rows_left_blank FROM ingested_files WHERE rows_left_blank > 0 ORDER BY 1"
    assert query(db, left_blank) == [("notices_mailed", 1)]  # the stormwater notice, left for later
    assert query(db, "SELECT site_id, inspected_at, inspector, kind FROM inspections") == [
        ("S-1", dt.datetime(2026, 6, 29, 14, 15, tzinfo=dt.UTC), "J. Park", "routine")
    ]
    assert query(db, "SELECT sample_id, user_id, parameter, sample_type, result, unit FROM lab_results") == [
        ("L-77", "IU-1", "BOD", "composite", 180.0, "mg/L")
    ]
    assert query(
        db, "SELECT count(*) FROM ingested_files WHERE rows_read <> rows_kept + rows_quarantined"
    ) == [(0,)]
    # the next workbook lists what still waits: the stormwater notice, not the mailed one
    again = openpyxl.load_workbook(tmp_path / "exports" / FILE)
    assert [r["recipient_id"] for r in rows_of(again["notices_mailed"])] == ["S-1"]
    tables = ("notices", "quarantine", "ingested_files", "notices_mailed", "inspections", "lab_results")
    before = {t: query(db, f"SELECT {_columns(t)} FROM {t} ORDER BY ALL") for t in tables}
    written = (tmp_path / "exports" / FILE).read_bytes()
    run(db, data, assets)
    assert {t: query(db, f"SELECT {_columns(t)} FROM {t} ORDER BY ALL") for t in tables} == before
    assert (tmp_path / "exports" / FILE).read_bytes() == written  # the same items, the same file


def _columns(table: str) -> str:
    """Every column but the day judged, and a file's stamp taken once it settled: a re-run sets them again."""
    return {"notices": "* EXCLUDE (as_of)", "ingested_files": "* EXCLUDE (file_stamp)"}.get(table, "*")


def test_an_in_memory_warehouse_writes_no_workbook(tmp_path):
    result = materialize(
        [to_record],
        resources={
            "duckdb": DuckDBResource(database=":memory:"),
            "settings": OutfallSettings(data_dir=str(tmp_path), as_of="2026-06-30"),
        },
    )
    assert result.success
    meta = result.asset_materializations_for_node("to_record")[0].metadata
    assert "no" in meta["written"].value and not list(tmp_path.rglob("*.xlsx"))


def test_a_renewal_recorded_on_the_permits_sheet_closes_the_renewal(town, tmp_path):
    # contract 8.2: the worklist's renewal is recorded by a permits row, a sheet of the workbook; the
    # permit it renews stays as it is, and the renewal adds a permit
    db, data = town
    assets = [ingest_asset("permits"), user_permits, obligations, to_record]
    run(db, data, assets)
    path = tmp_path / "exports" / FILE
    wb = openpyxl.load_workbook(path)
    (row,) = rows_of(wb["permits"])
    assert (row["user_id"], row["permit_no"], row["permit to renew"], row["status"]) == (
        "IU-1",
        None,
        "P-1",
        "expires soon",
    )
    read_me = " ".join(str(c.value) for r in wb["Read me"].iter_rows() for c in r if c.value)
    assert "notices_mailed, inspections, report_deliveries, lab_results and permits" in read_me
    assert "a permit to renew" in read_me
    fill(
        wb["permits"],
        2,
        permit_no="P-1B",
        effective_on=dt.datetime(2026, 6, 25),
        expires_on=dt.datetime(2031, 6, 24),
        issued_on=dt.datetime(2026, 6, 20),
    )
    (data / "permits").mkdir()
    wb.save(data / "permits" / FILE)
    run(db, data, assets)
    assert query(db, "SELECT user_id, permit_no, effective_on, expires_on, issued_on FROM permits") == [
        ("IU-1", "P-1B", D(2026, 6, 25), D(2031, 6, 24), D(2026, 6, 20))
    ]
    assert query(db, "SELECT count(*) FROM quarantine") == [(0,)]
    assert query(
        db, "SELECT reference, status, satisfied_on FROM obligations WHERE obligation = 'permit_renewal'"
    ) == [("P-1", "met", D(2026, 6, 20))]
    assert rows_of(openpyxl.load_workbook(path)["permits"]) == []  # nothing left to renew


def test_a_renewal_taking_effect_after_the_day_closes_nothing_yet(town, tmp_path):
    # contract 8.1: a permit's own day is its effective day; a renewal recorded for a later day is not yet
    # a fact, so as of 2026-06-30 the renewal stays open and the workbook still asks for it
    db, data = town
    assets = [ingest_asset("permits"), user_permits, obligations, to_record]
    run(db, data, assets)
    wb = openpyxl.load_workbook(tmp_path / "exports" / FILE)
    fill(
        wb["permits"],
        2,
        permit_no="P-1B",
        effective_on=dt.datetime(2026, 7, 16),
        expires_on=dt.datetime(2031, 7, 15),
        issued_on=dt.datetime(2026, 6, 20),
    )
    (data / "permits").mkdir()
    wb.save(data / "permits" / FILE)
    run(db, data, assets)
    assert query(db, "SELECT count(*) FROM quarantine") == [(0,)]
    assert query(db, "SELECT reference, status FROM obligations WHERE obligation = 'permit_renewal'") == [
        ("P-1", "open")
    ]
    assert [
        r["permit to renew"] for r in rows_of(openpyxl.load_workbook(tmp_path / "exports" / FILE)["permits"])
    ] == ["P-1"]


def test_a_permits_row_left_blank_records_nothing(town, tmp_path):
    db, data = town
    assets = [ingest_asset("permits"), user_permits, obligations, to_record]
    run(db, data, assets)
    (data / "permits").mkdir()
    openpyxl.load_workbook(tmp_path / "exports" / FILE).save(data / "permits" / FILE)
    run(db, data, assets)
    assert query(db, "SELECT count(*) FROM permits") == [(0,)]
    assert query(db, "SELECT count(*) FROM quarantine") == [(0,)]
    assert query(db, "SELECT rows_left_blank FROM ingested_files WHERE dataset = 'permits'") == [(1,)]
