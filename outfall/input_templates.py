"""The empty forms of every input folder (``outfall templates --out DIR``): one CSV with the header row
in each folder, as ``outfall run --data DIR`` reads them, and one workbook, ``outfall_inputs.xlsx``,
with a sheet per folder (its header noted column by column, Excel's checks of what is typed) after a
"Read me" sheet saying what each sheet is, who fills it and where it is saved. Everything comes from
the dataset specs (``outfall.ingest.registry``); no row is written, so nothing needs deleting.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from outfall import workbooks
from outfall.atomic import write_atomic
from outfall.ingest.datasets import Dataset
from outfall.ingest.registry import all_datasets
from outfall.rules import load_all

WORKBOOK = "outfall_inputs.xlsx"
# The day written inside the workbook: a fixed one, so that the same specs give the same file.
WRITTEN = dt.datetime(2026, 1, 1)


LETTERHEAD = "letterhead.yaml"


def template_paths(out: Path) -> list[Path]:
    """Every file ``write_templates`` writes under ``out``."""
    return [out / name / f"{name}.csv" for name in all_datasets()] + [out / WORKBOOK, out / LETTERHEAD]


def letterhead_form(rules_dir: Path | str | None = None) -> str:
    """The letterhead file to fill (docs/letters.md): an entry per jurisdiction of the rules found (the
    rules folder of the run: OUTFALL_RULES_DIR, else the project's), its name as its rules file names it,
    a signatory for each kind of letter its rules give (sewer, stormwater), every other value blank. Left
    blank, each letter says which line is missing and is not ready to mail. ``rules_dir``: the folder of
    the rules files to key it to (``outfall templates --rules DIR``)."""
    found = load_all(rules_dir)
    lines = [
        "# Who the letters come from and who signs them (docs/letters.md). Fill in every value; a",
        f"# jurisdiction whose letters you do not send may be deleted. Written for the rules found: "
        f"{', '.join(f'{j}.yaml' for j in found)}.",
        "",
    ]
    for jurisdiction, rules in found.items():
        lines += [
            f"{jurisdiction}:",
            f"  name: {json.dumps(rules.name)}{' ' * max(1, 26 - len(json.dumps(rules.name)))}# as its rules "
            "file names it",
            "  address:                    # the mailing address, one line per item (at least two)",
            '    - ""',
            '    - ""',
            '  phone: ""',
            "  signatories:",
        ]
        areas = [
            a
            for a, section in (("sewer", "discharge_limits"), ("stormwater", "swppp"))
            if getattr(rules, section)
        ]
        for area in areas:
            lines += [
                f"    {area}:                     # who signs the {area} letters",
                '      name: ""',
                '      title: ""',
                '      phone: ""',
            ]
        lines.append("")
    return "\n".join(lines)


def csv_header(ds: Dataset) -> str:
    return ",".join(c.name for c in ds.columns) + "\n"


def _how_to_save(ds: Dataset) -> str:
    how = f"Save the sheet as 'CSV UTF-8 (Comma delimited)' into the folder {ds.name}"
    if ".xlsx" in ds.extensions:
        return how + ", or save the whole workbook there (that folder reads its own sheet)."
    return how + " (that folder reads CSV files only)."


READ_ME = (
    "Outfall reads one folder per kind of record. Each sheet of this workbook is the form of one folder, "
    "and is named after it; the CSV file in each folder is the same form.",
    "Type your rows under the header of a sheet. Each header cell has a note (point at it) saying what the "
    "column holds, whether it must be filled, and an example. The sheets hold no example rows: nothing needs "
    "deleting.",
    "Excel checks what you type in most columns: dates, numbers, whole numbers, and words picked from a "
    "list.",
    "To hand a sheet to Outfall, save it into the folder of the same name in the data folder (the table "
    "below says how). Any file name will do. A file saved again under the same name is read again.",
)


def build_workbook():
    """The workbook: "Read me", then a sheet per dataset."""
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    table = [("sheet (and folder)", "who fills it", "what it is", "how to save it")]
    for name, ds in all_datasets().items():
        ws = wb.create_sheet(name)
        letters = workbooks.write_header(ws, ds)
        workbooks.add_checks(ws, ds, letters)
        table.append((name, workbooks.person(ds), ds.description, _how_to_save(ds)))
    workbooks.notes_sheet(wb, READ_ME, table)
    wb.active = 0
    return wb


def write_templates(out: Path, rules_dir: Path | str | None = None) -> list[Path]:
    """Write every form under ``out`` (letterhead.yaml keyed to the rules of ``rules_dir``: the run's rules
    folder when not given); the files written."""
    written = []
    for name, ds in all_datasets().items():
        written.append(write_atomic(out / name / f"{name}.csv", csv_header(ds)))
    written.append(write_atomic(out / WORKBOOK, workbooks.workbook_bytes(build_workbook(), WRITTEN)))
    written.append(write_atomic(out / LETTERHEAD, letterhead_form(rules_dir)))
    return written
