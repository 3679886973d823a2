"""Workbooks people fill: a workbook saved into a folder gives it the sheet named after it and
leaves the other folders' sheets alone; a row Outfall prefilled and nobody answered is quarantined with
one plain reason, never stored and never dropped; columns the folder does not read are left unread."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest

from outfall.ingest.datasets import DATASETS, PREFILLED_COLUMN
from tests.ingesting import con, load  # noqa: F401 - con is a fixture

MAILED = [
    "kind",
    "recipient_id",
    "period",
    "mailed_on",
    "certified_mail_no",
    "correct_within_days",
    "withdrawn_reason",
]
INSPECTED = ["site_id", "inspected_at", "inspector", "kind", "sediment_capacity_lost_pct", "notes"]
MAILED_ON_BLANK = (
    "mailed_on is blank: give the day the notice was mailed, or a withdrawn_reason to withdraw the draft"
)


def workbook(path: Path, sheets: dict[str, list[list]], percent: tuple[str, str] | None = None) -> Path:
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    if percent:
        wb[percent[0]][percent[1]].number_format = "0%"
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)
    return path


def quarantine(con, dataset: str) -> list[tuple]:
    return con.execute(
        "SELECT source_file, row_number, reason FROM quarantine WHERE dataset = ? "
        "ORDER BY source_file, row_number",
        [dataset],
    ).fetchall()


def balanced(con, dataset: str) -> bool:
    read, kept, quarantined = con.execute(
        "SELECT sum(rows_read), sum(rows_kept), sum(rows_quarantined) FROM ingested_files WHERE dataset = ?",
        [dataset],
    ).fetchall()[0]
    return read == kept + quarantined


def one_per_folder(data: Path) -> Path:
    """One workbook with a sheet per folder (as exports/to_record.xlsx), notes, and a sheet of nothing."""
    sheets = {
        "Read me": [["What each sheet is"], ["inspections: the inspections made"]],
        "notices_mailed": [MAILED, ["sewer", "IU-1", "2026-03", dt.date(2026, 4, 2), "7001", None, None]],
        "Inspections": [INSPECTED, ["S-1", dt.datetime(2026, 5, 4, 9, 30), "J. Park", "routine", 10, None]],
        "lab_results": [["sample_id", "user_id"], ["X-1", "IU-1"]],
        "Notes": [["Typed by the officer"]],
        "Empty": [],
    }
    for folder in ("inspections", "notices_mailed"):
        workbook(data / folder / "office.xlsx", sheets)
    return data


def test_a_folder_reads_its_own_sheet_and_leaves_the_others_for_their_folders(con, tmp_path):
    data = one_per_folder(tmp_path / "d")
    report = load(con, data, "inspections")
    assert (report.rows_read, report.rows_kept, report.rows_quarantined) == (2, 1, 1)
    assert con.execute("SELECT site_id, inspector, source_file FROM inspections").fetchall() == [
        ("S-1", "J. Park", "office.xlsx [Inspections]")
    ]
    # only a sheet that is no folder's and not Outfall's notes is quarantined, as it always was
    assert quarantine(con, "inspections") == [
        ("office.xlsx [Notes]", 0, quarantine(con, "inspections")[0][2])
    ]
    assert "sheet 'Notes' was not read" in quarantine(con, "inspections")[0][2]
    assert report.notes == [
        "office.xlsx: sheets 'notices_mailed', 'lab_results' not read here: each belongs to the input folder "
        "of its name",
        "office.xlsx: sheet 'Read me' not read: it holds notes for people, not rows",
    ]
    assert balanced(con, "inspections")
    mailed = load(con, data, "notices_mailed")
    assert (mailed.rows_read, mailed.rows_kept) == (2, 1)
    assert con.execute("SELECT recipient_id, mailed_on FROM notices_mailed").fetchall() == [
        ("IU-1", dt.date(2026, 4, 2))
    ]
    assert "sheets 'Inspections', 'lab_results' not read here" in mailed.notes[0]
    assert load(con, data, "inspections").files_skipped == 1  # a re-run reads nothing again


def test_a_workbook_with_no_sheet_for_its_folder_says_so(con, tmp_path):
    """Saved into the wrong folder, the workbook is one quarantine row naming its folders, not silence."""
    data = tmp_path / "d"
    workbook(
        data / "sites" / "to_record.xlsx",
        {
            "Read me": [["notes"]],
            "notices_mailed": [MAILED],
            "inspections": [INSPECTED, ["S-1", "2026-05-04", "J. Park"]],
        },
    )
    report = load(con, data, "sites")
    assert (report.rows_read, report.rows_quarantined) == (1, 1)
    assert quarantine(con, "sites") == [
        (
            "to_record.xlsx",
            0,
            "the workbook has no sheet for sites: its sheets are "
            "for the folders inspections, notices_mailed; save it into those folders",
        )
    ]


def test_the_notes_sheet_is_read_when_it_holds_the_folders_rows(con, tmp_path):
    """Only a notes sheet without the header is left unread: a real table named "Read me" is data."""
    data = tmp_path / "d"
    workbook(data / "inspections" / "w.xlsx", {"Read me": [INSPECTED, ["S-2", "2026-05-04", "A. Lee"]]})
    report = load(con, data, "inspections")
    assert report.rows_kept == 1 and not report.notes


def prefilled(rows: list[list], header=MAILED) -> list[list]:
    """A sheet as Outfall prefills it: the marker column last, "yes" in each row it wrote; rows typed
    in below it by a person have no marker."""
    return [[*header, "recipient name", PREFILLED_COLUMN], *rows]


def test_a_prefilled_row_left_blank_records_nothing_and_a_partly_filled_one_is_judged(con, tmp_path):
    """Contract 7.5: a row Outfall prefilled whose cells to fill are all blank is no row (counted as left
    blank, not quarantined); one with any of them filled is judged, and quarantined naming the column."""
    data = tmp_path / "d"
    workbook(
        data / "notices_mailed" / "to_record.xlsx",
        {
            "notices_mailed": prefilled(
                [
                    [
                        "sewer",
                        "IU-1",
                        "2026-03",
                        dt.date(2026, 4, 2),
                        "7001",
                        None,
                        None,
                        "Acme",
                        "yes",
                    ],  # mailed
                    ["sewer", "IU-2", "2026-03", None, None, None, "sent twice", "Bolt", "yes"],  # withdrawn
                    ["sewer", "IU-3", "2026-03", None, "7009", None, None, "Crane", "yes"],  # partly filled
                    ["stormwater", "S-1", "2026-04", None, None, None, None, "Shore", "yes"],  # left blank
                    ["sewer", "IU-4", "2026-03", None, None, None, None, "Dove", None],  # typed in
                ]
            )
        },
    )
    report = load(con, data, "notices_mailed")
    assert (report.rows_read, report.rows_kept, report.rows_quarantined) == (4, 2, 2)
    assert report.rows_left_blank == 1
    got = quarantine(con, "notices_mailed")
    assert [r for _, r, _ in got] == [3, 5]  # row 4, left blank, is not there
    assert got[0][2] == MAILED_ON_BLANK  # partly filled: the column to fill is named
    assert got[1][2] == MAILED_ON_BLANK  # no marker: judged as always
    assert con.execute(
        "SELECT rows_left_blank, prefilled FROM ingested_files WHERE dataset = 'notices_mailed'"
    ).fetchall() == [(1, True)]
    # the workbook's rows set aside come first on the quarantine page and their person's list
    assert con.execute("SELECT DISTINCT prefilled FROM quarantine").fetchall() == [(True,)]
    raw = con.execute("SELECT raw FROM quarantine WHERE row_number = 3").fetchall()[0][0]
    assert '"certified_mail_no":"7009"' in raw.replace(" ", "")  # what was typed is kept
    assert con.execute(
        "SELECT recipient_id, mailed_on, withdrawn_reason FROM notices_mailed ORDER BY 1"
    ).fetchall() == [("IU-1", dt.date(2026, 4, 2), None), ("IU-2", None, "sent twice")]
    columns = {
        c
        for (c,) in con.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'notices_mailed'"
        ).fetchall()
    }
    assert not {"recipient_name", "prefilled_by_outfall"} & columns  # never stored
    assert balanced(con, "notices_mailed")


def test_an_answer_however_partial_is_judged_as_any_row(con, tmp_path):
    """The marker never hides a row: any answer given and the row is judged, its own reasons and all."""
    data = tmp_path / "d"
    workbook(
        data / "inspections" / "to_record.xlsx",
        {
            "inspections": prefilled(
                [
                    ["S-1", None, "J. Park", "routine", None, None, "Harbor Lots", "yes"],
                    ["S-1", None, None, "storm", None, None, "Harbor Lots", "yes"],
                    ["S-2", "2026-05-04 09:30", "J. Park", "routine", None, None, "Mill Site", "yes"],
                ],
                INSPECTED,
            )
        },
    )
    load(con, data, "inspections")
    got = [(r, why) for _, r, why in quarantine(con, "inspections")]
    assert got == [(1, "missing required value for 'inspected_at'")]  # row 2: left blank
    assert con.execute("SELECT site_id FROM inspections").fetchall() == [("S-2",)]


def test_a_prefilled_sheet_saved_as_csv_is_judged_the_same(con, tmp_path):
    data = tmp_path / "d"
    path = data / "notices_mailed" / "to_record.csv"
    path.parent.mkdir(parents=True)
    path.write_text(
        ",".join([*MAILED, "recipient name", PREFILLED_COLUMN]) + "\n"
        "sewer,IU-1,2026-03,2026-04-02,7001,,,Acme,yes\n"
        "sewer,IU-3,2026-03,,,,,Crane,yes\n",
        encoding="utf-8",
    )
    report = load(con, data, "notices_mailed")
    counts = (report.rows_read, report.rows_kept, report.rows_quarantined, report.rows_left_blank)
    assert counts == (1, 1, 0, 1)
    assert quarantine(con, "notices_mailed") == []


def test_a_percentage_is_never_read_as_its_fraction(con, tmp_path):
    data = tmp_path / "d"
    workbook(
        data / "inspections" / "w.xlsx",
        {
            "inspections": [
                INSPECTED,
                ["S-1", "2026-05-04", "J. Park", "routine", 0.5, None],
                ["S-1", "2026-05-11", "J. Park", "routine", 0.00001, None],
            ]
        },
        percent=("inspections", "E2"),
    )
    load(con, data, "inspections")
    [(_, row, why)] = quarantine(con, "inspections")
    assert row == 1 and "'50%'" in why and "sediment_capacity_lost_pct" in why
    assert con.execute("SELECT sediment_capacity_lost_pct FROM inspections").fetchall() == [(0.00001,)]


@pytest.mark.parametrize("name", ["notices_mailed", "inspections"])
def test_the_folders_people_record_in_take_workbooks(name):
    assert ".xlsx" in DATASETS[name].extensions and ".csv" in DATASETS[name].extensions


def test_the_instruments_folders_take_no_workbooks():
    assert ".xlsx" not in DATASETS["flow"].extensions and ".xlsx" not in DATASETS["rainfall"].extensions
