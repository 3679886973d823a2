"""`outfall templates --out DIR`: an empty form of every input folder, as a CSV in each folder
and one workbook with a sheet per folder, every column noted and checked, all from the dataset specs."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import openpyxl
import pytest

from outfall.ingest.datasets import PREFILLED_COLUMN
from outfall.ingest.registry import all_datasets
from outfall.input_templates import WORKBOOK
from outfall.workbooks import LIST_MAX, column_check, words
from pipelines.cli import main
from tests.ingesting import con, load  # noqa: F401 - con is a fixture

CHECKS = {
    "date": "date",
    "timestamp": "date",
    "number": "decimal",
    "integer": "whole",
    "bool": "list",
    "enum": "list",
}


@pytest.fixture(scope="module")
def forms(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("forms") / "inputs"
    assert main(["templates", "--out", str(out)]) == 0
    return out


def test_every_folder_gets_its_csv_form(forms):
    for name, ds in all_datasets().items():
        text = (forms / name / f"{name}.csv").read_text(encoding="utf-8")
        assert text == ",".join(c.name for c in ds.columns) + "\n"


def test_the_forms_folder_is_a_data_folder_with_nothing_in_it(forms, con):
    for name in all_datasets():
        report = load(con, forms, name)
        assert (report.rows_read, report.rows_quarantined) == (0, 0), name


def test_the_workbook_has_a_read_me_then_a_sheet_per_folder(forms):
    wb = openpyxl.load_workbook(forms / WORKBOOK)
    assert wb.sheetnames == ["Read me", *all_datasets()]
    notes = "\n".join(str(c.value) for row in wb["Read me"].iter_rows() for c in row if c.value)
    for name, ds in all_datasets().items():
        assert name in notes and ds.description in notes
    assert (
        "Superintendent of Sewage" in notes and "Clerk" in notes and "Stormwater Management Officer" in notes
    )
    assert "save it into the folder of the same name" in notes and "nothing needs deleting" in notes
    assert not re.search(r"\bcontract\b", notes.lower())


def test_each_sheet_is_a_noted_header_with_excels_checks_and_no_rows(forms):
    wb = openpyxl.load_workbook(forms / WORKBOOK)
    for name, ds in all_datasets().items():
        ws = wb[name]
        assert ws.max_row == 1, name  # no example row to delete
        assert [c.value for c in ws[1]] == [c.name for c in ds.columns]
        checks = {str(v.sqref).split(":")[0][:-1]: v for v in ws.data_validations.dataValidation}
        for cell, col in zip(ws[1], ds.columns):
            note = cell.comment.text
            when = col.doc.replace("`", "") if not col.required and "required" in col.doc else None
            assert note.startswith(  # a column required only at times says when, as the reader requires it
                f"{col.name}: {when}."
                if when
                else f"{col.name}: {'required' if col.required else 'may be left blank'}."
            ), (name, col.name, note)
            if col.kind in CHECKS:
                assert checks[cell.column_letter].type == CHECKS[col.kind], (name, col.name)
            if col.kind == "enum":
                listed = checks[cell.column_letter].formula1.strip('"').split(",")
                assert listed == list(words(col)) and listed[0] in note  # the example is a word of the list
    lab = wb["lab_results"]
    assert "Example: composite" in lab["D1"].comment.text and "Example: mg/L" in lab["G1"].comment.text
    assert "Example: 2026-03" in wb["notices_mailed"]["C1"].comment.text


def test_every_list_fits_in_excels_check():
    for ds in all_datasets().values():
        for col in ds.columns:
            if words(col):
                assert len(",".join(words(col))) <= LIST_MAX - 2 and column_check(col) is not None


def test_a_filled_sheet_saved_into_its_folder_is_read(forms, con, tmp_path):
    wb = openpyxl.load_workbook(forms / WORKBOOK)
    wb["inspections"].append(["S-1", dt.datetime(2026, 5, 4, 9, 30), "J. Park", "routine", 10, "silt fence"])
    data = tmp_path / "data"
    (data / "inspections").mkdir(parents=True)
    wb.save(data / "inspections" / "may.xlsx")
    report = load(con, data, "inspections")
    assert (report.rows_read, report.rows_kept, report.rows_quarantined) == (1, 1, 0)
    assert report.notes and "each belongs to the input folder of its name" in report.notes[0]
    assert PREFILLED_COLUMN not in [c.value for c in wb["inspections"][1]]


def test_the_same_specs_give_the_same_workbook(forms, tmp_path):
    assert main(["templates", "--out", str(tmp_path / "again")]) == 0
    assert (tmp_path / "again" / WORKBOOK).read_bytes() == (forms / WORKBOOK).read_bytes()


def test_arguments_it_cannot_use_exit_2_with_one_line(forms, tmp_path, capsys):
    csv = forms / "parcels" / "parcels.csv"
    before = csv.read_bytes()
    assert main(["templates", "--out", str(forms)]) == 2  # never over a file already there
    assert csv.read_bytes() == before
    assert main(["templates", "--out", str(csv)]) == 2
    assert main(["templates"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 3 and all(line.startswith("outfall: ") for line in lines)
    assert "exists already" in lines[0] and "not a folder" in lines[1] and "--out" in lines[2]


def test_the_letterhead_form_names_what_is_missing(tmp_path):
    from outfall.input_templates import LETTERHEAD, write_templates
    from outfall.letters import read_letterhead

    write_templates(tmp_path)
    status = read_letterhead(tmp_path)
    assert (tmp_path / LETTERHEAD).is_file() and status.letterhead is None
    assert "woodbury > address" in status.problem and "signatories" in status.problem
    assert "woodbury > name" not in status.problem  # the town's name, as its rules file names it
