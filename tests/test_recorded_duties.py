"""Each duty a recorded action creates is named where it is recorded and on the list (contract 8.5): an
inspection recorded through the to-record workbook starts the applicant's duty to deliver its report to the
officer within the week (Woodbury ch. 267); the workbook's inspections sheet says so on the row, the
officer's worklist names the awaited report until its delivery is recorded (the workbook's
report_deliveries sheet), and only a report not delivered in time is a finding."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl

from assets import ingest as ingest_assets
from assets.stormwater import swppp as sw
from assets.to_record import FILE, to_record
from assets.worklist import worklist
from outfall.ingest.stormwater import SWPPP_DATASETS
from tests.conftest import materialize_town, query_warehouse as rows, write
from tests.test_to_record import fill, rows_of

D = dt.date
ASSETS = (
    list(ingest_assets.ingest_assets)
    + [ingest_assets.ingest_asset(ds.name) for ds in SWPPP_DATASETS]
    + [sw.site_classification, sw.swppp_other_findings, sw.swppp_upcoming, worklist, to_record]
)


def _town(data: Path) -> None:
    write(
        data,
        "sites/s.csv",
        """
        site_id,jurisdiction,disturbed_acres,construction_start,rain_gauge_id,name,address,applicant
        W-1,woodbury,3.0,2026-11-02,G1,Elm Court,1 Elm Ct,Builder Co
        """,
    )
    write(
        data,
        "inspections/i.csv",
        """
        site_id,inspected_at,inspector,kind
        W-1,2026-11-06,J. Park,routine
        """,
    )
    write(data, "rainfall/r.csv", "gauge_id,date,precip_in\nG1,2026-11-03,0.1\n")
    write(data, "report_deliveries/d.csv", "site_id,report_date,delivered_on\nW-1,2026-11-06,2026-11-09\n")


def test_an_inspection_recorded_through_the_workbook_names_its_report_until_it_is_delivered(tmp_path):
    data, wh = tmp_path / "data", tmp_path / "w.duckdb"
    _town(data)
    materialize_town(ASSETS, data, wh, "2026-11-13")
    path = tmp_path / "exports" / FILE
    wb = openpyxl.load_workbook(path)
    (row,) = rows_of(wb["inspections"])  # the weekly inspection due November 13
    assert (row["site_id"], row["kind"], row["inspected_at"]) == ("W-1", "routine", None)
    # the sheet names the duty recording the inspection creates
    assert row["then due"].startswith(
        "its report, delivered to the Stormwater Management Officer within 7 days of the inspection"
    )
    assert "ch. 267" in row["then due"]
    assert rows_of(wb["report_deliveries"]) == []  # the November 6 report was delivered

    # the officer records the inspection of November 13 in the workbook and saves it into inspections
    fill(wb["inspections"], 2, inspected_at=dt.datetime(2026, 11, 13, 10), inspector="J. Park")
    wb.save(data / "inspections" / FILE)
    materialize_town(ASSETS, data, wh, "2026-11-16")
    assert rows(wh, "SELECT site_id, report_date, due_by, status FROM swppp_reports_due") == [
        ("W-1", D(2026, 11, 13), D(2026, 11, 20), "upcoming")
    ]
    (line,) = rows(
        wh, "SELECT person, action, due, status, detail FROM worklist WHERE source = 'swppp_reports_due'"
    )
    assert line[0] == "stormwater_officer" and line[2] == D(2026, 11, 20)
    assert "report of the inspection of November 13, 2026" in line[1]
    assert "not delivered by then, it is a violation" in line[4]
    assert rows(wh, "SELECT count(*) FROM swppp_other_findings WHERE finding = 'report_not_delivered'") == [
        (0,)
    ]
    wb = openpyxl.load_workbook(path)
    (awaited,) = rows_of(wb["report_deliveries"])
    assert (awaited["site_id"], str(awaited["report_date"])[:10], awaited["delivered_on"]) == (
        "W-1",
        "2026-11-13",
        None,
    )

    # the report arrives on November 18 and is recorded on that sheet: the line closes, no finding
    fill(wb["report_deliveries"], 2, delivered_on=dt.datetime(2026, 11, 18), method="email")
    wb.save(data / "report_deliveries" / FILE)
    materialize_town(ASSETS, data, wh, "2026-11-23")
    assert rows(wh, "SELECT count(*) FROM swppp_reports_due") == [(0,)]
    assert rows(wh, "SELECT count(*) FROM worklist WHERE source = 'swppp_reports_due'") == [(0,)]
    assert rows(wh, "SELECT count(*) FROM swppp_other_findings WHERE finding = 'report_not_delivered'") == [
        (0,)
    ]
    assert rows(wh, "SELECT count(*) FROM quarantine") == [(0,)]


def test_a_report_not_delivered_in_time_is_a_finding_not_a_line(tmp_path):
    data, wh = tmp_path / "data", tmp_path / "w.duckdb"
    _town(data)
    write(
        data,
        "inspections/more.csv",
        """
        site_id,inspected_at,inspector,kind
        W-1,2026-11-13,J. Park,routine
        """,
    )
    materialize_town(ASSETS, data, wh, "2026-11-21")  # due November 20: passed
    assert rows(wh, "SELECT count(*) FROM swppp_reports_due") == [(0,)]
    assert rows(
        wh, "SELECT trigger_date, status FROM swppp_other_findings WHERE finding = 'report_not_delivered'"
    ) == [(D(2026, 11, 13), "overdue")]
