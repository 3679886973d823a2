"""What waits for a person's answer, as one workbook to fill: ``exports/to_record.xlsx``.

A sheet per input folder a person records in, named after it, one prefilled row per open item:

- ``notices_mailed`` (the clerk): each draft notice or order whose mailing that folder records (every kind
  of document with a ``mailed_as`` in the registry, ``outfall.document_kinds``), for the day it was mailed
  (or why it was withdrawn);
- ``inspections`` (the stormwater management officer): each inspection coming due or overdue
  (table ``swppp_upcoming``), for when it was made and by whom, with the duty recording it creates (its
  report to the officer, contract 8.5);
- ``report_deliveries`` (the stormwater management officer): each report of a recorded inspection still
  awaited (table ``swppp_reports_due``), for the day it was delivered;
- ``lab_results`` (the Superintendent of Sewage): each testing period still open (table
  ``required_testing``), for the sample's result;
- ``permits`` (the Superintendent of Sewage): each permit to renew (obligations ``permit_renewal``, open or
  overdue), for the new permit's number and term (contract 8.2: a renewal adds a permit).

Each sheet has its folder's columns (the key of the item prefilled, the answers blank, with Excel's
checks: ``outfall.workbooks``), grey columns for reading only (the folder does not read them) and a
hidden column marking the rows Outfall wrote (contract 7.5): a row saved back with nothing filled in
records nothing and is counted as left blank; a row partly filled, or filled against the notes, is
quarantined naming the column (``Dataset.answers``). Days the sender gives (a stormwater notice's, a grease
order's) are marked required on its row (contracts 7.2, 8.4); a mailing saved without them is a record all the
same, listed for review (contract 8.3). Saved into each of its folders, the workbook is read as any input
file. Written whole (``outfall.atomic``) where exports go (``outfall.output_folders``); nothing is
written
without a folder (an in-memory warehouse).
"""

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from dagster import MaterializeResult, MetadataValue, asset
from dagster_duckdb import DuckDBResource

from assets.common import GROUP_DASHBOARDS, WAREHOUSE_POOL, outputs, warehouse
from outfall import workbooks
from outfall.atomic import write_atomic
from outfall.document_kinds import DAYS_GIVEN, DAYS_MOST, KINDS, writers
from outfall.ingest.datasets import PREFILLED_COLUMN
from outfall.ingest.registry import all_datasets
from outfall.output_folders import OutputPaths
from outfall.resources import OutfallSettings, RulesResource
from outfall.warehouse import records

FILE = "to_record.xlsx"


@dataclass(frozen=True)
class Sheet:
    dataset: str
    query: str  # sql/<area>/<query>.sql: one row per open item
    prefilled: tuple[str, ...]  # the folder's columns filled from the row (same names)
    helpers: tuple[tuple[str, str, str], ...]  # (header, note, the row's column): for reading only


SHEETS = (
    Sheet(
        "notices_mailed",
        "select_notices_to_record",
        ("kind", "recipient_id", "period"),
        (
            ("recipient name", "Who the notice is addressed to.", "recipient_name"),
            ("violations", "How many violations the notice lists.", "violations"),
            ("letter file", "The notice's letter, to print and mail.", "letter"),
            (
                "not ready to send because",
                "What the recipient's address on file lacks, when it lacks something: complete it in the "
                "file named before mailing.",
                "address_missing",
            ),
        ),
    ),
    Sheet(
        "inspections",
        "select_inspections_to_record",
        ("site_id", "kind"),
        (
            ("site name", "The construction site.", "site_name"),
            ("inspection due", "Which inspection is due, and why.", "detail"),
            ("due by", "The last day for it.", "due_by"),
            ("status", "Overdue, due today, due tomorrow or upcoming, on the day Outfall ran.", "status"),
            (
                "then due",
                "What recording this inspection starts: its report, due to the officer within the days the "
                "law gives (blank: nothing). It comes back on the report_deliveries sheet until it is "
                "recorded as delivered; not delivered in time, it is a violation.",
                "then_due",
            ),
        ),
    ),
    Sheet(
        "report_deliveries",
        "select_reports_to_record",
        ("site_id", "report_date"),
        (
            ("site name", "The construction site.", "site_name"),
            ("due by", "The last day to deliver the report of that inspection.", "due_by"),
            ("status", "Due today, due tomorrow or upcoming, on the day Outfall ran.", "status"),
        ),
    ),
    Sheet(
        "lab_results",
        "select_testing_to_record",
        ("user_id", "parameter", "sample_type"),
        (
            ("user name", "The industrial user.", "name"),
            ("how often", "How often the testing is required.", "frequency"),
            ("period from", "The first day of the testing period.", "period_start"),
            ("due by", "The last day of the testing period: the sample is taken by then.", "period_end"),
        ),
    ),
    Sheet(
        "permits",
        "select_permits_to_record",
        ("user_id",),
        (
            ("user name", "The industrial user.", "name"),
            ("permit to renew", "The permit that expires: it stays as it is.", "permit_to_renew"),
            ("it expires", "Its last day.", "expires_on"),
            ("status", "Expired, or expiring soon, on the day Outfall ran.", "status"),
        ),
    ),
)


def _helper_value(value, key: str, paths: OutputPaths):
    if key == "letter" and value and paths.dashboards is not None:
        return str(paths.dashboards / value)
    return value


def write_sheet(wb, sheet: Sheet, rows: list[dict], paths: OutputPaths):
    """The sheet of one folder: its header, then one prefilled row per item; the sheet and its letters."""
    ds = all_datasets()[sheet.dataset]
    ws = wb.create_sheet(sheet.dataset)
    letters = workbooks.write_header(ws, ds, [(h, note) for h, note, _ in sheet.helpers], marker=True)
    workbooks.add_checks(
        ws, ds, letters, skip=("correct_within_days",) if sheet.dataset == "notices_mailed" else ()
    )
    for number, row in enumerate(rows, start=2):
        for name in sheet.prefilled:
            value = row.get(name)
            workbooks.put(ws[f"{letters[name]}{number}"], None if value is None else str(value))
        for header, _, key in sheet.helpers:
            cell = ws[f"{letters[header]}{number}"]
            workbooks.put(cell, _helper_value(row.get(key), key, paths))
            cell.fill = workbooks.HELPER_FILL
        workbooks.put(ws[f"{letters[PREFILLED_COLUMN]}{number}"], "yes")
    return ws, letters


def correction_checks(ws, letter: str, rows: list[dict], sewer_max: int | None) -> None:
    """The days to correct (column ``letter``), by what the registry of kinds says they mean for the row's
    kind: a whole number from 0 to the most the sewer law allows where blank gives that most (a sewer
    notice); required where the person mailing it gives them (a stormwater notice: the law leaves them to the
    officer, contract 7.2; a grease order: the administrator's), marked so and checked as a whole number from
    0; none where the document sets no period (a stop-work order); any whole number from 0 below the rows."""
    days = {k.mailed_as: k.days for k in KINDS.values() if k.mailed_as}
    sewer = [f"{letter}{n}" for n, r in enumerate(rows, start=2) if days.get(r["kind"]) == DAYS_MOST]
    required = [f"{letter}{n}" for n, r in enumerate(rows, start=2) if days.get(r["kind"]) == DAYS_GIVEN]
    below = [f"{letter}{len(rows) + 2}:{letter}{workbooks.LAST_ROW}"]
    if sewer:
        ws.add_data_validation(workbooks.whole_number_check(0, sewer_max, sewer))
    if required:
        check = workbooks.whole_number_check(0, None, required)
        check.allow_blank = False
        check.error = "Required for this kind of document: type the days it gives, a whole number."
        ws.add_data_validation(check)
        for ref in required:
            ws[ref].fill = workbooks.REQUIRED_FILL
    ws.add_data_validation(workbooks.whole_number_check(0, None, below))


def _folders() -> str:
    """The sheets' folders in words: "a, b, c and d"."""
    names = [sheet.dataset for sheet in SHEETS]
    return f"{', '.join(names[:-1])} and {names[-1]}"


def read_me(
    as_of: dt.date, counts: dict[str, int], laws: dict[str, str] | None = None
) -> tuple[list[str], list[tuple[str, ...]]]:
    paragraphs = [
        f"What waits for an answer, as Outfall found it on {as_of.isoformat()}: a row per item, on the "
        "sheet of the person who answers it.",
        "Fill the white cells of each row; the grey columns are there to help and are not read. A row you "
        "cannot answer yet may stay as it is: a row with nothing filled in records nothing (it is counted as "
        "left blank) and comes back in the next workbook. A row partly filled, or filled against a column's "
        "note, is set aside on the quarantine page with the column named, and comes first on your list "
        "until it is corrected. Each header cell's note says what the column requires; a yellow cell is "
        "required on its row (a stormwater notice's days to correct: the law leaves them to the officer, so "
        "they are recorded). You may also type new rows below.",
        f"Then save this workbook into each of the folders {_folders()} of the data folder (each reads its "
        "own sheet and leaves the others), and run Outfall again.",
    ]
    table = [("sheet (and folder)", "who answers it", "what each row is", "rows")]
    what = {
        "notices_mailed": "a draft notice or order: the day it was mailed, or why it was withdrawn",
        "inspections": "an inspection coming due or overdue: when it was made, and by whom (a recorded "
        "inspection's report is then due: see its row's last column)",
        "report_deliveries": "the report of a recorded inspection, awaited: the day it was delivered",
        "lab_results": "testing still to do this period: the sample and its result",
        "permits": "a permit to renew: the new permit's number, its first and last days and the day it was "
        "issued (the permit it renews stays as it is)",
    }
    for sheet in SHEETS:
        ds = all_datasets()[sheet.dataset]
        who = workbooks.person(ds, laws)
        table.append((sheet.dataset, who, what[sheet.dataset], str(counts[sheet.dataset])))
    return paragraphs, table


def build_workbook(
    rows: dict[str, list[dict]],
    as_of: dt.date,
    sewer_max: int | None,
    paths: OutputPaths,
    laws: dict[str, str] | None = None,
):
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for sheet in SHEETS:
        ws, letters = write_sheet(wb, sheet, rows[sheet.dataset], paths)
        if sheet.dataset == "notices_mailed":
            correction_checks(ws, letters["correct_within_days"], rows[sheet.dataset], sewer_max)
    paragraphs, table = read_me(as_of, {name: len(r) for name, r in rows.items()}, laws)
    workbooks.notes_sheet(wb, paragraphs, table)
    wb.active = 0
    return wb


def _sewer_max(rules: RulesResource, as_of: dt.date) -> int | None:
    """The most days the sewer law allows to correct, on the day judged (None: no version in effect)."""
    version = rules.town_rules().versions_of("notices.sewer_correction").get(as_of)
    return None if version is None or version.max_days is None else int(version.max_days)


@asset(
    pool=WAREHOUSE_POOL,
    group_name=GROUP_DASHBOARDS,
    kinds={"excel"},
    deps=[*writers(), "letters", "required_testing", "swppp_upcoming", "swppp_other_findings", "obligations"],
    description="What waits for a person's answer, as one workbook to fill and save back into the input "
    "folders (exports/to_record.xlsx): the draft notices to record as mailed or withdrawn (notices_mailed), "
    "the inspections coming due or overdue (inspections), the reports of recorded inspections awaited "
    "(report_deliveries), the testing periods still open (lab_results) and the permits to renew (permits), "
    "each row prefilled, with Excel's checks of what is typed.",
)
def to_record(duckdb: DuckDBResource, settings: OutfallSettings, rules: RulesResource) -> MaterializeResult:
    paths = outputs(duckdb, settings)
    as_of = settings.as_of_date()
    with warehouse(duckdb, as_of=as_of) as con:
        rows = {sheet.dataset: records(con, sheet.query) for sheet in SHEETS}
    counts = {f"rows_{name}": len(r) for name, r in rows.items()}
    if paths.exports is None:
        return MaterializeResult(
            metadata={**counts, "written": "no: the warehouse has no folder (in memory)"}
        )
    laws = {name: law.short for name, law in rules.town_rules().laws(as_of).items()}
    wb = build_workbook(rows, as_of, _sewer_max(rules, as_of), paths, laws)
    path = write_atomic(
        Path(paths.exports) / FILE, workbooks.workbook_bytes(wb, dt.datetime.combine(as_of, dt.time()))
    )
    return MaterializeResult(metadata={**counts, "path": MetadataValue.path(str(path))})
