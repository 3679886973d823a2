"""A workbook loaded (outfall/ingest/engine.py): each of its sheets for this folder judged as a file
of its own (read through openpyxl and Arrow, ``outfall.ingest.xlsx``); sheets for other folders and
sheets of notes left alone and named in the run log."""

from __future__ import annotations

from outfall.ingest import xlsx
from outfall.ingest.judging import (
    FileReport,
    column_aliases,
    count_left_blank,
    finish_file,
    judge,
    read_columns,
    whole_file_problem,
)
from outfall.ingest.parse import clean_header
from outfall.ingest.registry import all_datasets


def load_xlsx(con, ds, path, rel, ctx, now) -> FileReport:
    problem = xlsx.workbook_problem(path)
    if problem:
        return whole_file_problem(con, ds, rel, problem, now)
    try:
        sheets = xlsx.read_workbook(
            path,
            read_columns(ds),
            ds.required,
            column_aliases(ds),
            ds.name,
            frozenset(all_datasets()) - {ds.name},
        )
    except Exception as exc:  # noqa: BLE001 - any reader failure means "not a workbook we can read"
        return whole_file_problem(
            con,
            ds,
            rel,
            f"the file is not a readable .xlsx workbook "
            f"({type(exc).__name__}); open it in Excel and save it again",
            now,
        )
    fr = FileReport(rel)
    if not sheets:
        return whole_file_problem(con, ds, rel, "the workbook is empty", now)
    if all(s.skipped for s in sheets) and any(s.skipped == xlsx.OTHER_FOLDER for s in sheets):
        # saved into the wrong folder: nothing of it is this folder's, and saying nothing would hide that
        folders = ", ".join(sorted({clean_header(s.name) for s in sheets if s.skipped == xlsx.OTHER_FOLDER}))
        return whole_file_problem(
            con,
            ds,
            rel,
            f"the workbook has no sheet for {ds.name}: its sheets are for the "
            f"folders {folders}; save it into those folders",
            now,
        )
    fr.notes = _skipped_sheets(rel, sheets)
    several = len(sheets) > 1
    for sheet in sheets:
        name = f"{rel} [{sheet.name}]" if several else rel
        if sheet.skipped:
            continue
        if sheet.problem:
            whole_file_problem(con, ds, name, sheet.problem, now, fr)
            continue
        table = xlsx.sheet_arrow(sheet)
        con.register("_xlsx_source", table)
        try:
            present = {c: "VARCHAR" for c in sheet.columns}
            count_left_blank(fr, judge(con, ds, ctx, "SELECT * FROM _xlsx_source", present, {}, name, now))
        finally:
            con.unregister("_xlsx_source")
        finish_file(con, ds, name, now, fr)
    return fr


def _skipped_sheets(rel: str, sheets) -> list[str]:
    """The run log's lines about the sheets of a workbook that are not this folder's."""
    elsewhere = [f"'{s.name}'" for s in sheets if s.skipped == xlsx.OTHER_FOLDER]
    notes = [f"'{s.name}'" for s in sheets if s.skipped == xlsx.NOTES]
    lines = []
    if elsewhere:
        lines.append(
            f"{rel}: sheet{'s' if len(elsewhere) > 1 else ''} {', '.join(elsewhere)} not read here: "
            f"{'each' if len(elsewhere) > 1 else 'it'} belongs to the input folder of its name"
        )
    if notes:
        lines.append(f"{rel}: sheet {', '.join(notes)} not read: it holds notes for people, not rows")
    return lines
