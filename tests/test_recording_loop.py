"""The README's loop, "Recording what happened", as a clerk runs it on the demo town (issue 37, contract 7.5):
open exports/to_record.xlsx, fill a few rows (two notices mailed, one withdrawn, one inspection, one sample;
the rest left blank), save the workbook into the folders notices_mailed/, inspections/ and lab_results/, run
Outfall again; three times. The quarantine holds only the row filled wrongly on purpose, and not once it is
corrected; each person's list loses exactly the actions recorded; `outfall verify` holds, and finds a byte
changed in a moved copy."""

from __future__ import annotations

import datetime as dt
import shutil
from collections import Counter
from pathlib import Path

import openpyxl
import pytest

from assets.to_record import FILE
from tests.conftest import query_warehouse, run_cli

pytestmark = pytest.mark.slow
AS_OF = "2026-11-30"  # the demo's day judged
FOLDERS = ("notices_mailed", "inspections", "lab_results")
REQUIREMENT = {"routine": "weekly"}  # the inspections sheet's kind, as the requirement it meets


def run(demo: Path) -> None:
    done = run_cli(
        "run",
        "--data",
        str(demo / "data"),
        "--warehouse",
        str(demo / "outfall.duckdb"),
        "--as-of",
        AS_OF,
        "--quiet",
        timeout=900,
    )
    assert done.returncode == 0, done.stderr


def lists(demo: Path) -> set[tuple]:
    return set(
        query_warehouse(demo / "outfall.duckdb", "SELECT person, subject_id, source, ref FROM worklist")
    )


def quarantined(demo: Path) -> list[tuple]:
    return query_warehouse(demo / "outfall.duckdb", "SELECT dataset, reason FROM quarantine ORDER BY ALL")


def rows(ws) -> list[dict]:
    header = [c.value for c in ws[1]]
    return [{"_row": r[0].row, **dict(zip(header, (c.value for c in r)))} for r in ws.iter_rows(min_row=2)]


def fill(ws, row: int, **answers) -> None:
    header = [c.value for c in ws[1]]
    for name, value in answers.items():
        ws.cell(row=row, column=header.index(name) + 1, value=value)


def notice_id(r: dict) -> str:
    return f"NOV-{'SE' if r['kind'] == 'sewer' else 'ST'}-{r['recipient_id']}-{r['period']}"


def save_into_folders(wb, demo: Path) -> None:
    for folder in FOLDERS:
        wb.save(demo / "data" / folder / FILE)


def first_cycle(demo: Path) -> tuple[set[tuple], set[tuple], str]:
    """Two notices mailed (one sewer, one stormwater with its days to correct), one withdrawn, one
    inspection, one sample; and a stormwater notice given a certified mail number but no mailing day,
    wrongly on purpose (a mailing without its days is a record all the same: contract 8.3).
    Returns (the actions recorded, as the worklist keys them; the lines the records add: the row to correct,
    the next weekly inspection of the site inspected and, where its reports go to the officer weekly, the
    delivery of its report (contract 8.5); the notice filled wrongly)."""
    wb = openpyxl.load_workbook(demo / "exports" / FILE)
    notices = rows(wb["notices_mailed"])
    ready = [r for r in notices if not r.get("not ready to send because")]
    sewer = [r for r in ready if r["kind"] == "sewer"]
    storm = [r for r in ready if r["kind"] == "stormwater"]
    mailed, withdrawn, storm_mailed, wrong = sewer[0], sewer[1], storm[0], storm[1]
    day = dt.datetime(2026, 11, 30)
    fill(wb["notices_mailed"], mailed["_row"], mailed_on=day, certified_mail_no="7019 0000 0000 1001")
    fill(wb["notices_mailed"], withdrawn["_row"], withdrawn_reason="sent to the wrong user")
    fill(wb["notices_mailed"], storm_mailed["_row"], mailed_on=day, certified_mail_no="7019 0000 0000 1002")
    fill(wb["notices_mailed"], storm_mailed["_row"], correct_within_days=10)
    # a number but no mailing day (nor a reason to withdraw it): against the sheet's rules
    fill(wb["notices_mailed"], wrong["_row"], certified_mail_no="7019 0000 0000 1003")
    inspection = rows(wb["inspections"])[0]
    fill(
        wb["inspections"], inspection["_row"], inspected_at=dt.datetime(2026, 11, 30, 9), inspector="J. Park"
    )
    sample = rows(wb["lab_results"])[0]
    fill(
        wb["lab_results"],
        sample["_row"],
        sample_id="LOOP-1",
        collected_at=dt.datetime(2026, 11, 20, 8),
        result=100,
        unit="mg/L",
    )
    save_into_folders(wb, demo)
    recorded = {
        ("superintendent", mailed["recipient_id"], "notices", notice_id(mailed)),
        ("superintendent", withdrawn["recipient_id"], "notices", notice_id(withdrawn)),
        ("stormwater_officer", storm_mailed["recipient_id"], "notices", notice_id(storm_mailed)),
        (
            "stormwater_officer",
            inspection["site_id"],
            "swppp_upcoming",
            f"{REQUIREMENT.get(inspection['kind'], inspection['kind'])} {inspection['due by']:%Y-%m-%d}",
        ),
        (
            "superintendent",
            sample["user_id"],
            "required_testing",
            f"{sample['parameter']} {sample['sample_type']} {sample['period from']:%Y-%m-%d}",
        ),
    }
    added = {
        (
            "clerk",
            f"{FILE} [notices_mailed]",
            "quarantine",
            f"notices_mailed {FILE} [notices_mailed] {wrong['_row'] - 1}",
        ),
        ("stormwater_officer", inspection["site_id"], "swppp_upcoming", "weekly 2026-12-07"),
    }
    if inspection["then due"]:  # the duty recording it creates, named on its row and then on the list (8.5)
        added.add(("stormwater_officer", inspection["site_id"], "swppp_reports_due", "report 2026-11-30"))
    return recorded, added, notice_id(wrong)


def test_three_cycles_of_the_loop(demo_town, tmp_path):
    demo = tmp_path / "demo"
    shutil.copytree(demo_town, demo)
    before_lists, before_quarantine = lists(demo), quarantined(demo)

    # cycle 1: what happened is recorded; one row is filled against the sheet's rules
    recorded, added, wrong = first_cycle(demo)
    run(demo)
    after = lists(demo)
    assert before_lists - after == recorded  # each line closed is an action recorded
    # the row to correct (first on the clerk's list), the next inspection, the report the inspection calls for
    assert after - before_lists == added
    # as multisets: the demo's own files may hold rows quarantined already
    wrong_rows = list((Counter(quarantined(demo)) - Counter(before_quarantine)).elements())
    assert len(quarantined(demo)) == len(before_quarantine) + 1
    assert wrong_rows[0][0] == "notices_mailed" and "mailed_on is blank" in wrong_rows[0][1]
    assert query_warehouse(demo / "outfall.duckdb", "SELECT action FROM worklist WHERE first")[0][
        0
    ].startswith("Correct row")
    left_blank = query_warehouse(demo / "outfall.duckdb", "SELECT sum(rows_left_blank) FROM ingested_files")[
        0
    ][0]
    assert left_blank > 50  # every row left as it was: recorded as nothing, not quarantined
    assert "Left blank:" in (demo / "dashboards" / "quarantine.html").read_text(encoding="utf-8")

    # cycle 2: the row is corrected (its mailing day and days to correct given); the rest left blank
    wb = openpyxl.load_workbook(demo / "exports" / FILE)
    again = [r for r in rows(wb["notices_mailed"]) if notice_id(r) == wrong]
    assert again, "the notice filled wrongly is still a draft, in the next workbook"
    fill(wb["notices_mailed"], again[0]["_row"], mailed_on=dt.datetime(2026, 11, 30), correct_within_days=10)
    save_into_folders(wb, demo)
    run(demo)
    assert quarantined(demo) == before_quarantine
    second = lists(demo)
    assert after - second == {a for a in added if a[0] == "clerk"} | {
        a for a in after if a[3] == wrong
    }  # the correction and the notice now mailed
    assert second <= after

    # cycle 3: nothing filled in: nothing changes
    save_into_folders(openpyxl.load_workbook(demo / "exports" / FILE), demo)
    run(demo)
    assert quarantined(demo) == before_quarantine and lists(demo) == second
    statuses = dict(
        query_warehouse(
            demo / "outfall.duckdb",
            "SELECT notice_id, status FROM notices WHERE notice_id IN "
            f"({', '.join(repr(r[3]) for r in recorded if r[2] == 'notices')}, {wrong!r})",
        )
    )
    assert sorted(statuses.values()) == ["mailed", "mailed", "mailed", "withdrawn"]

    # the records hold, and a moved copy with one byte changed is found out
    ok = run_cli("verify", "--warehouse", str(demo / "outfall.duckdb"))
    assert ok.returncode == 0, ok.stderr
    moved = tmp_path / "moved"
    moved.mkdir()
    shutil.copy(demo / "outfall.duckdb", moved / "outfall.duckdb")
    shutil.copytree(demo / "dashboards", moved / "dashboards")
    (file,) = query_warehouse(
        demo / "outfall.duckdb", "SELECT file FROM documents_issued WHERE document_id = ?", [wrong]
    )[0]
    letter = moved / "dashboards" / file
    data = bytearray(letter.read_bytes())
    data[len(data) // 2] ^= 0x01
    letter.write_bytes(bytes(data))
    bad = run_cli("verify", "--warehouse", str(moved / "outfall.duckdb"))
    assert bad.returncode == 1 and wrong in bad.stderr
