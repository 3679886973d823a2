"""Every CSV and XLSX export, read back as a clerk's spreadsheet would read it:
formula injection neutralised (OWASP), numbers still numbers, UTF-8 with BOM,
the register workbook's headers, money formats, totals, filter, frozen header
and print set-up, and the all-tables workbook's typed cells."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import re
import shutil
import subprocess
import zipfile
from decimal import Decimal
from pathlib import Path
from xml.etree import ElementTree

import duckdb
import openpyxl
import pyarrow as pa
import pytest

from assets.billing.billing import bill, verify_run_chain
from outfall import spreadsheets
from outfall.register_export import REGISTER_COLUMNS, bills_csv_bytes, export_register
from outfall.rules import load_rules
from outfall.warehouse import transaction
from pipelines.cli import main
from tests.ingesting import con  # noqa: F401 - a fixture: a warehouse with every table

RULES = load_rules("woodbury")
T0 = dt.datetime(2026, 7, 1, 12, tzinfo=dt.UTC)
BOM = b"\xef\xbb\xbf"

# OWASP CSV injection payloads, as they could come in from an input file.
PAYLOADS = [
    '=HYPERLINK("http://example.com/x?leak=1","Click")',
    "+1+1",
    "@SUM(1)",
    "-2+3",
    "\t=1+1",
    "\r=2+2",
    "=cmd|' /C calc'!A0",
]
RATES = {
    ("consolidated", "bond"): "100.00",
    ("consolidated", "om"): "50.005",
    ("consolidated", "street_lateral"): "10",
    ("consolidated", "house_lateral"): "5",
    ("district_1", "bond"): "120",
    ("district_1", "om"): "60",
    ("district_1", "street_lateral"): "12",
    ("district_1", "house_lateral"): "6",
}


def put_town(con) -> list[tuple]:
    """Parcels whose ids, owners and addresses carry the payloads, plus plain ones."""
    parcels = []
    for i, payload in enumerate(PAYLOADS):
        district = "consolidated" if i % 2 == 0 else "district_1"
        parcels.append(
            (payload, district, "two_family", None, None, None, None, False, f"Owner {i}", f"{i} Elm St")
        )
        parcels.append((f"P-{i}", district, "single_family", 1.0, None, None, None, i == 3, payload, payload))
    parcels.append(
        ("P-R", "consolidated", "restaurant", None, 51, None, None, False, "Café § 1 Müller", " 9 Main ")
    )
    parcels.append(("P-N", "district_1", "approved_lot", None, None, None, None, False, None, None))
    for p in parcels:
        con.execute(
            "INSERT INTO parcels (parcel_id, district, property_class, acres, seats, bathrooms, people, "
            "moratorium, owner, address) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            list(p),
        )
    for (district, component), rate in RATES.items():
        con.execute(
            "INSERT INTO sewer_rates (year, district, component, rate_per_unit, source_file, source_row) "
            "VALUES (2026, ?, ?, ?, 'test', 1)",
            [district, component, rate],
        )
    with transaction(con):
        [result] = bill(con, RULES, 0, T0)
    return parcels, result


def read_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    data = path.read_bytes()
    assert data.startswith(BOM), f"{path.name} has no byte-order mark"
    rows = list(csv.reader(io.StringIO(data[len(BOM) :].decode("utf-8"), newline="")))
    return rows[0], rows[1:]


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def assert_no_formula_text(header: list[str], rows: list[list[str]], where: str) -> None:
    """No field a spreadsheet would run as a formula: each begins with none of
    the triggers, or is a plain number (-5.5 in a number column)."""
    for row in rows:
        for name, value in zip(header, row):
            assert not value.startswith(spreadsheets.FORMULA_TRIGGERS) or _number(value), (
                f"{where}: {name} = {value!r} is not neutralised"
            )


SUBTOTAL = re.compile(r"=SUBTOTAL\(9,([A-Z]+)2:\1(\d+)\)")


def assert_no_formula_cells(path: Path) -> None:
    """No cell of any sheet is a formula, but the totals rows' SUBTOTAL(9, <the column's rows above>)
    (read by openpyxl and in the raw XML): no text becomes a formula."""
    wb = openpyxl.load_workbook(path)
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    where = f"{path.name}!{ws.title}!{cell.coordinate}"
                    found = SUBTOTAL.fullmatch(cell.value)
                    assert found and found.group(1) == cell.column_letter, (
                        f"{where} is a formula: {cell.value}"
                    )
                    assert cell.row == ws.max_row and int(found.group(2)) == cell.row - 1, where
    with zipfile.ZipFile(path) as package:
        for name in package.namelist():
            data = package.read(name)
            ElementTree.fromstring(data)  # every part is well-formed XML
            if name.startswith("xl/worksheets/"):
                assert b"<f " not in data, name
                assert all(f.startswith(b"SUBTOTAL(9,") for f in re.findall(rb"<f>([^<]*)</f>", data)), name


# ---------------------------------------------------------------------------
# the rule itself


@pytest.mark.parametrize("text", PAYLOADS + ["=1", "+", "-", "@", "\t", "\r"])
def test_formula_like_text_gets_an_apostrophe(text):
    assert spreadsheets.formula_like(text)
    assert spreadsheets.neutralise(text) == "'" + text


@pytest.mark.parametrize(
    "value",
    [
        "",
        "Plain text",
        " =1 (leading space)",
        "1-2",
        "'=already",
        "A=B",
        None,
        -2.5,
        -3,
        Decimal("-1.25"),
        0,
        True,
        dt.date(2026, 1, 2),
    ],
)
def test_everything_else_is_left_alone(value):
    assert not spreadsheets.formula_like(value)
    assert spreadsheets.neutralise(value) is value or spreadsheets.neutralise(value) == value


def test_csv_writer_neutralises_text_and_keeps_numbers_numeric():
    table = pa.table(
        {
            "name": PAYLOADS + ["Café §"],
            "amount": [-2.5] * len(PAYLOADS) + [3.0],
            "money": pa.array([Decimal("-12.50")] * (len(PAYLOADS) + 1), pa.decimal128(12, 2)),
        }
    )
    data = spreadsheets.csv_bytes(table)
    assert data.startswith(BOM)
    reader = csv.DictReader(io.StringIO(data[len(BOM) :].decode("utf-8"), newline=""))
    rows = list(reader)
    assert [r["name"] for r in rows] == ["'" + p for p in PAYLOADS] + ["Café §"]
    assert all(float(r["amount"]) in (-2.5, 3.0) for r in rows)  # plain numbers, no apostrophe
    assert all(Decimal(r["money"]) == Decimal("-12.50") for r in rows)
    assert b'"-2.5"' not in data and b"'-2.5" not in data and b"'-12.50" not in data


# ---------------------------------------------------------------------------
# the sewer register


def test_register_csv_files_are_neutralised_with_bom_and_hash_the_file(con, tmp_path):
    parcels, result = put_town(con)
    out = tmp_path / "billing"
    files = export_register(con, out)
    csvs = [p for p in files if p.suffix == ".csv"]
    assert {p.name for p in csvs} == {
        "sewer_register_2026.csv",
        "sewer_bills_2026.csv",
        "bill_changes_2026.csv",
        "billing_summary.csv",
        "billing_runs.csv",
    }
    for path in csvs:
        header, rows = read_csv(path)
        assert_no_formula_text(header, rows, path.name)
    for name, parcel, owner, total, units in (
        ("sewer_register_2026.csv", "Parcel", "Owner", "Total (USD)", "Bond units"),
        ("sewer_bills_2026.csv", "parcel_id", None, "total_usd", "units_bond"),
    ):
        header, rows = read_csv(out / name)
        ids = [r[header.index(parcel)] for r in rows]
        for payload in PAYLOADS:
            assert "'" + payload in ids
            assert owner is None or "'" + payload in [r[header.index(owner)] for r in rows]
        # Numbers stay numbers: every amount parses, none carries an apostrophe.
        for r in rows:
            assert Decimal(r[header.index(total)]) >= 0
            assert int(r[header.index(units)]) >= 0
    # The recorded hash is the bills file's, byte-order mark included; the chain holds.
    data = (out / "sewer_bills_2026.csv").read_bytes()
    assert data == bills_csv_bytes(con, 2026)
    assert hashlib.sha256(data).hexdigest() == result.register_sha256
    assert verify_run_chain(con) == []
    assert "Café § 1 Müller" not in data.decode("utf-8")  # owners are not in the hashed register


def _district_sheets(wb) -> list:
    return [
        ws
        for ws in wb.worksheets
        if ws.title
        not in ("Totals", "Summary", "Addresses to complete", "Inspection fees", "Changes", "About")
    ]


def test_register_workbook_as_a_clerk_opens_it(con, tmp_path):
    parcels, result = put_town(con)
    out = tmp_path / "billing"
    export_register(con, out)
    path = out / "sewer_register_2026.xlsx"
    assert_no_formula_cells(path)
    wb = openpyxl.load_workbook(path)
    cached = openpyxl.load_workbook(path, data_only=True)  # what a reader that does not recalculate shows
    assert wb.sheetnames == [
        "Consolidated Sewer District",
        "Sewer District #1",
        "Totals",
        "Summary",
        "Addresses to complete",
        "Inspection fees",
        "Changes",
        "About",
    ]
    headers = [
        "Parcel",
        "Owner",
        "Mailing address",
        "Property class",
        "Bond units",
        "O&M units",
        "Street lateral units",
        "House lateral units",
        "Bond",
        "O&M",
        "Street lateral",
        "House lateral",
        "Total",
        "How the units were counted",
        "Law",
    ]
    assert [c.header for c in REGISTER_COLUMNS] == headers
    money_cols = [headers.index(h) + 1 for h in ("Bond", "O&M", "Street lateral", "House lateral", "Total")]
    unit_cols = [headers.index(h) + 1 for h in headers if h.endswith("units")]
    owners = {p[0]: (p[8], p[9]) for p in parcels}
    seen_ids = []
    grand_total = Decimal("0")
    for ws in _district_sheets(wb):
        district = {"Consolidated Sewer District": "consolidated", "Sewer District #1": "district_1"}[
            ws.title
        ]
        n = sum(1 for p in parcels if p[1] == district)
        assert [c.value for c in ws[1]] == headers
        assert all(c.font.b for c in ws[1])  # bold header
        assert ws.freeze_panes == "A2"
        assert ws.auto_filter.ref == f"A1:O{n + 1}"  # filter over the bills only
        assert ws.max_row == n + 2  # header, bills, totals
        assert ws.print_title_rows == "$1:$1"  # header on every printed page
        assert ws.page_setup.orientation == "landscape"
        assert ws.page_setup.fitToWidth == 1 and ws.page_setup.fitToHeight == 0
        assert ws.sheet_properties.pageSetUpPr.fitToPage
        assert ws.oddHeader.left.text == "Town of Woodbury" and ws.oddHeader.center.text == "&A"
        assert "&P" in ws.oddFooter.right.text and "&N" in ws.oddFooter.right.text
        assert ws.column_dimensions["N"].width >= 40 and ws.column_dimensions["A"].width >= 12
        body = list(ws.iter_rows(min_row=2, max_row=n + 1))
        for row in body:
            parcel = row[0].value
            seen_ids.append(parcel)
            assert row[0].data_type == "s"
            assert (row[1].value, row[2].value) == owners[parcel]
            for cell in row:
                if isinstance(cell.value, str) and cell.value.startswith(spreadsheets.FORMULA_TRIGGERS):
                    assert cell.data_type == "s" and cell.quotePrefix, (ws.title, cell.coordinate)
            for col in money_cols:
                assert row[col - 1].number_format == '"$"#,##0.00'
                assert isinstance(row[col - 1].value, (int, float))
            for col in unit_cols:
                assert isinstance(row[col - 1].value, int)
            # wrapped text makes its row taller (readers do not grow rows by themselves)
            law = row[headers.index("Law")]
            assert law.alignment.wrap_text
            lines = spreadsheets.text_lines(
                law.value, spreadsheets.line_chars(ws.column_dimensions["O"].width)
            )
            assert lines > 1 and (ws.row_dimensions[law.row].height or 15) >= 15 * lines
        # The totals row is SUBTOTAL(9, ...) of the rows above, its cached value their sum, in the money
        # format, bold.
        totals, shown = ws[n + 2], cached[ws.title][n + 2]
        assert totals[0].value == f"Total, {n} parcels" and totals[0].font.b
        for col in money_cols + unit_cols:
            letter = totals[col - 1].column_letter
            assert totals[col - 1].value == f"=SUBTOTAL(9,{letter}2:{letter}{n + 1})"
            column_sum = sum(Decimal(str(r[col - 1].value)) for r in body)
            assert Decimal(str(shown[col - 1].value)) == column_sum, (ws.title, headers[col - 1])
        for col in money_cols:
            assert totals[col - 1].number_format == '"$"#,##0.00'
        grand_total += Decimal(str(shown[headers.index("Total")].value))
    # Every payload is there exactly as it came (the cell is text, not a formula).
    for payload in PAYLOADS:
        assert payload in seen_ids
    assert "Café § 1 Müller" in [owners[p][0] for p in seen_ids]
    assert grand_total == result.total_usd
    # Totals: rates with their source, amounts as money, a total row.
    totals = wb["Totals"]
    header = [c.value for c in totals[1]]
    assert header == [
        "District",
        "Component",
        "Parcels charged",
        "Units",
        "Rate per unit",
        "Rate from",
        "Budget",
        "Amount",
    ]
    rows = list(totals.iter_rows(min_row=2))
    assert rows[-1][0].value == "All districts" and rows[-1][7].value == f"=SUBTOTAL(9,H2:H{len(rows)})"
    shown = list(cached["Totals"].iter_rows(min_row=2))
    assert (
        Decimal(str(shown[-1][7].value))
        == sum(Decimal(str(r[7].value)) for r in rows[:-1])
        == result.total_usd
    )
    assert rows[0][7].number_format == '"$"#,##0.00' and rows[0][4].number_format == '"$"#,##0.00####'
    assert totals.auto_filter.ref == f"A1:H{len(rows)}"
    summary = wb["Summary"]
    assert [c.value for c in summary[1]][:4] == ["District", "Property class", "Parcels", "Bond units"]
    last = list(cached["Summary"].iter_rows(min_row=2, values_only=True))[-1]
    assert last[0] == "All districts" and last[2] == len(parcels)
    assert Decimal(str(last[-1])) == result.total_usd
    about = {r[0]: r[1] for r in wb["About"].iter_rows(min_row=2, values_only=True)}
    assert about["Town"] == "Town of Woodbury" and about["Billing year"] == 2026
    assert isinstance(about["Run at (local time)"], dt.datetime)
    for ws in wb.worksheets:  # every sheet prints the same way
        assert ws.freeze_panes == "A2" and ws.print_title_rows == "$1:$1"
        assert ws.page_setup.orientation == "landscape"


MAIL_MERGE_HEADER = [
    "Billing year",
    "Parcel",
    "Owner",
    "Mailing address",
    "City",
    "State",
    "ZIP",
    "District",
    "Property class",
    "Bond units",
    "Operation and maintenance units",
    "Street lateral units",
    "House lateral units",
    "Bond amount (USD)",
    "Operation and maintenance amount (USD)",
    "Street lateral amount (USD)",
    "House lateral amount (USD)",
    "Total (USD)",
    "How the units were counted",
    "Law",
]


def put_mailing_town(con) -> None:
    """Three parcels: one with a full mailing address and an accented owner, one whose owner's name could
    run as a formula and whose mail goes to a PO box, one whose parcels row has no city, state or ZIP."""
    parcels = [
        (
            "P-1",
            "consolidated",
            "single_family",
            1.0,
            None,
            False,
            "Muñoz, Ana",
            "12 Elm St",
            None,
            "Woodbury",
            "NY",
            "10930",
        ),
        (
            "P-2",
            "district_1",
            "restaurant",
            None,
            51,
            False,
            "=cmd|' /C calc'!A0",
            "3 Main St",
            "PO Box 7",
            "Central Valley",
            "NY",
            "10917-0007",
        ),
        (
            "P-3",
            "district_1",
            "approved_lot",
            None,
            None,
            False,
            "Nguyễn Holdings",
            "9 Oak Ln",
            None,
            None,
            None,
            None,
        ),
    ]
    for p in parcels:
        con.execute(
            "INSERT INTO parcels (parcel_id, district, property_class, acres, seats, moratorium, owner, "
            "address, mailing_address, city, state, zip) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            list(p),
        )
    for year, scale in ((2025, Decimal("0.9")), (2026, Decimal("1"))):
        for (district, component), rate in RATES.items():
            con.execute(
                "INSERT INTO sewer_rates (year, district, component, rate_per_unit, source_file, source_row) "
                "VALUES (?, ?, ?, ?, 'test', 1)",
                [year, district, component, str(Decimal(rate) * scale)],
            )
    with transaction(con):
        bill(con, RULES, 0, T0)


def test_register_csv_feeds_a_mail_merge(con, tmp_path):
    put_mailing_town(con)
    export_register(con, tmp_path)
    path = tmp_path / "sewer_register_2026.csv"
    data = path.read_bytes()
    # Excel on Windows reads a CSV without a byte-order mark in the system's code page: "Muñoz" would show as
    # "MuÃ±oz". The mark makes it read UTF-8.
    assert data.startswith(BOM) and "Muñoz, Ana".encode() in data
    assert "Muñoz".encode().decode("cp1252") == "MuÃ±oz"
    # Read as a mail merge reads it: a header row of field names, one record per bill.
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        assert reader.fieldnames == MAIL_MERGE_HEADER
        records = {r["Parcel"]: r for r in reader}
    one, two, three = records["P-1"], records["P-2"], records["P-3"]
    assert (one["Owner"], one["Mailing address"], one["City"], one["State"], one["ZIP"]) == (
        "Muñoz, Ana",
        "12 Elm St",
        "Woodbury",
        "NY",
        "10930",
    )
    assert (one["District"], one["Property class"], one["Billing year"]) == (
        "Consolidated Sewer District",
        "single-family",
        "2026",
    )
    assert (one["Bond units"], one["Operation and maintenance amount (USD)"], one["Total (USD)"]) == (
        "1",
        "50.01",
        "165.01",
    )  # 100 + 50.005 half-up + 10 + 5
    assert two["Owner"] == "'=cmd|' /C calc'!A0"  # never a formula in Excel
    assert (two["Mailing address"], two["ZIP"]) == ("PO Box 7", "10917-0007")  # the mailing street line wins
    assert (two["District"], two["Property class"]) == ("Sewer District #1", "restaurant")
    assert (three["Owner"], three["Mailing address"]) == ("Nguyễn Holdings", "9 Oak Ln")
    assert (three["City"], three["State"], three["ZIP"], three["Property class"]) == (
        "",
        "",
        "",
        "approved lot",
    )
    text = data.decode("utf-8-sig")
    for code in ("district_1", "single_family", "units_om", "amount_om", "total_usd", "approved_lot"):
        assert code not in text, code
    # The bills as billed keep the codes, and are the hashed file.
    with (tmp_path / "sewer_bills_2026.csv").open(encoding="utf-8-sig", newline="") as handle:
        bills = {r["parcel_id"]: r for r in csv.DictReader(handle)}
    assert (bills["P-2"]["district"], bills["P-2"]["property_class"]) == ("district_1", "restaurant")
    assert "owner" not in bills["P-2"]


def test_changes_and_summary_csv_in_words(con, tmp_path):
    put_mailing_town(con)
    export_register(con, tmp_path)
    with (tmp_path / "bill_changes_2026.csv").open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        assert reader.fieldnames[:6] == [
            "Billing year",
            "Parcel",
            "Owner",
            "Compared with",
            "Change",
            "District before",
        ]
        changes = {r["Parcel"]: r for r in reader}
    one = changes["P-1"]
    assert (one["Owner"], one["Compared with"], one["Change"]) == (
        "Muñoz, Ana",
        "The 2025 register",
        "Higher amount, same units",
    )
    assert (one["District now"], one["Property class now"]) == (
        "Consolidated Sewer District",
        "single-family",
    )
    assert Decimal(one["Change in total (USD)"]) == Decimal(one["Total now (USD)"]) - Decimal(
        one["Total before (USD)"]
    )
    text = (tmp_path / "bill_changes_2026.csv").read_text(encoding="utf-8-sig")
    assert "amount_up" not in text and "previous_year" not in text and " -> " not in text
    with (tmp_path / "billing_summary.csv").open(encoding="utf-8-sig", newline="") as handle:
        summary = list(csv.DictReader(handle))
    assert {(r["Billing year"], r["District"], r["Property class"]) for r in summary} >= {
        ("2026", "Sewer District #1", "restaurant"),
        ("2025", "Consolidated Sewer District", "single-family"),
    }


@pytest.mark.skipif(
    shutil.which("soffice") is None, reason="LibreOffice is not installed (Debian: libreoffice-calc)"
)
def test_libreoffice_recalculates_the_totals_of_a_corrected_row(con, tmp_path):
    """The totals row is live in a spreadsheet program: one amount corrected, LibreOffice's total follows."""
    put_town(con)
    export_register(con, tmp_path)
    wb = openpyxl.load_workbook(tmp_path / "sewer_register_2026.xlsx")
    ws = wb["Sewer District #1"]
    n = ws.max_row - 2
    total_col = [c.value for c in ws[1]].index("Total") + 1
    before = sum(Decimal(str(ws.cell(row=r, column=total_col).value)) for r in range(2, n + 2))
    ws.cell(row=2, column=total_col).value = float(
        Decimal(str(ws.cell(row=2, column=total_col).value)) + 1000
    )
    wb.active = wb.sheetnames.index("Sewer District #1")
    edited = tmp_path / "edited.xlsx"
    wb.save(edited)  # openpyxl keeps the formulas, not their values: LibreOffice computes
    profile = tmp_path / "lo-profile"
    done = subprocess.run(
        [
            "soffice",
            f"-env:UserInstallation=file://{profile}",
            "--headless",
            "--convert-to",
            "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,2",
            "--outdir",
            str(tmp_path / "lo"),
            str(edited),
        ],
        capture_output=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    [out] = list((tmp_path / "lo").glob("*.csv"))
    rows = list(csv.reader(out.read_text(encoding="utf-8").splitlines()))
    assert rows[n + 1][0] == f"Total, {n} parcels"
    assert Decimal(rows[n + 1][total_col - 1]) == before + 1000


def test_the_register_says_how_many_bills_lack_a_full_mailing_address_and_which(con, tmp_path):
    """The mail merge's gaps (issue 37): the owner's name, street line, city, state and ZIP code, by the one
    address rule of every letter; a parcel with all of them is not listed."""
    from outfall.register_export import bills_lacking_address

    parcels, _ = put_town(con)
    con.execute(
        "UPDATE parcels SET city = 'Central Valley', state = 'NY', zip = '10917' WHERE parcel_id = 'P-0'"
    ).fetchall()
    con.execute(
        "UPDATE parcels SET city = 'Central Valley', state = 'NY', zip = '109' WHERE parcel_id = 'P-1'"
    ).fetchall()
    lacking = {r["parcel_id"]: r["lacks"] for r in bills_lacking_address(con, 2026)}
    assert "P-0" not in lacking and len(lacking) == len(parcels) - 1
    assert lacking["P-1"] == "the ZIP code '109' is not five digits (or five and four)"
    assert lacking["P-N"].startswith(
        "the mailing address on file lacks the name, the street address, the city"
    )
    export_register(con, tmp_path)
    ws = openpyxl.load_workbook(tmp_path / "sewer_register_2026.xlsx")["Addresses to complete"]
    rows = list(ws.iter_rows(values_only=True))
    assert rows[0] == ("Parcel", "Owner", "Mailing address", "City", "State", "ZIP", "What it lacks")
    assert len(rows) == 1 + len(lacking) + 1
    assert rows[-1][-1].startswith(f"{len(lacking)} of the {len(parcels)} bills of 2026 lack a full mailing")


def test_register_text_edge_cases_are_kept(con, tmp_path):
    parcels, _ = put_town(con)
    export_register(con, tmp_path)
    wb = openpyxl.load_workbook(tmp_path / "sewer_register_2026.xlsx")
    cells = {
        ws.cell(row=r, column=1).value: (ws, r) for ws in _district_sheets(wb) for r in range(2, ws.max_row)
    }
    ws, r = cells["P-R"]
    assert ws.cell(row=r, column=3).value == " 9 Main "  # surrounding blanks kept
    ws, r = cells["\r=2+2"]  # a carriage return survives XML
    assert ws.cell(row=r, column=1).quotePrefix
    ws, r = cells["P-N"]
    assert (
        ws.cell(row=r, column=2).value is None and ws.cell(row=r, column=5).value == 1
    )  # no owner: empty cell


# ---------------------------------------------------------------------------
# outfall export: every output table


def put_outputs(con) -> None:
    """Output rows carrying payloads, JSON, dates, times, money and booleans."""
    con.execute(
        "INSERT INTO quarantine (dataset, source_file, row_number, reason, raw, quarantined_at) VALUES "
        "('parcels', 'p.csv', 3, '=HYPERLINK(\"http://x\")', ?, TIMESTAMPTZ '2026-01-02 08:00:00Z')",
        ['{"parcel_id": "=1+1", "owner": "@SUM(1)", "acres": "-2+3"}'],
    )
    con.execute(
        "INSERT INTO infiltration_results (section_id, test_date, allowable_gpd, measured_gpd, gpimd, "
        "passes, rule) VALUES ('+1+1', DATE '2026-05-01', 1600, -5.5, 200, false, 'ch. 253 § 253-12')"
    )
    for i, payload in enumerate(PAYLOADS):  # an industrial user's name and address, as a notice lists them
        con.execute(
            "INSERT INTO snc_publication (year, user_id, name, address, determinations, year_closed) "
            "VALUES (2026, ?, ?, ?, ?, true)",
            [f"IU-{i}", payload, payload, -i],
        )


def test_export_all_tables(con, tmp_path):
    put_town(con)
    put_outputs(con)
    db = con.execute(
        "SELECT path FROM duckdb_databases() WHERE database_name = current_database()"
    ).fetchall()[0][0]
    con.close()
    out = tmp_path / "exports"
    assert main(["export", "--warehouse", db, "--out", str(out)]) == 0
    csvs = sorted((out / "csv").glob("*.csv")) + sorted((out / "billing").glob("*.csv"))
    assert len(csvs) > 20
    for path in csvs:
        header, rows = read_csv(path)
        assert_no_formula_text(header, rows, path.name)
    header, rows = read_csv(out / "csv" / "quarantine.csv")
    assert rows[0][header.index("reason")] == '\'=HYPERLINK("http://x")'
    assert rows[0][header.index("quarantined_at")] == "2026-01-02 03:00:00-05:00"  # local time, with offset
    header, rows = read_csv(out / "csv" / "infiltration_results.csv")
    assert rows[0][header.index("section_id")] == "'+1+1"
    assert float(rows[0][header.index("measured_gpd")]) == -5.5  # a number, not text
    assert "ch. 253 § 253-12" in (out / "csv" / "infiltration_results.csv").read_text(encoding="utf-8-sig")

    path = out / "outfall_tables.xlsx"
    assert_no_formula_cells(path)
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames[0] == "Contents"
    contents = {r[1]: r for r in wb["Contents"].iter_rows(min_row=2, values_only=True) if r[1]}
    assert contents["csv/quarantine.csv"][2] == 1
    for ws in wb.worksheets:
        assert ws.freeze_panes == "A2", ws.title
        assert ws.column_dimensions["A"].width and ws.column_dimensions["A"].width >= 8, ws.title
        assert ws.print_title_rows == "$1:$1"
    q = wb["quarantine"]
    header = [c.value for c in q[1]]
    row = {h: c for h, c in zip(header, q[2])}
    assert row["reason"].value == '=HYPERLINK("http://x")' and row["reason"].quotePrefix
    assert row["raw"].value == "parcel id: =1+1; owner: @SUM(1); acres: -2+3"  # JSON as words
    assert row["row_number"].value == 3 and row["row_number"].data_type == "n"
    assert row["quarantined_at"].is_date and row["quarantined_at"].value == dt.datetime(2026, 1, 2, 3, 0)
    assert q.auto_filter.ref == "A1:G2"  # dataset .. quarantined_at, prefilled
    snc = wb["snc_publication"]
    header = [c.value for c in snc[1]]
    names = [r[header.index("name")] for r in snc.iter_rows(min_row=2)]
    assert sorted(c.value for c in names) == sorted(PAYLOADS) and all(c.quotePrefix for c in names)
    assert [r[header.index("determinations")].value for r in snc.iter_rows(min_row=2)] == [
        -i for i in range(7)
    ]
    header, rows = read_csv(out / "csv" / "snc_publication.csv")
    assert sorted(r[header.index("name")] for r in rows) == sorted("'" + p for p in PAYLOADS)
    assert [int(r[header.index("determinations")]) for r in rows] == [-i for i in range(7)]
    inf = wb["infiltration_results"]
    header = [c.value for c in inf[1]]
    row = {h: c for h, c in zip(header, inf[2])}
    assert row["section_id"].value == "+1+1" and row["section_id"].quotePrefix
    assert row["measured_gpd"].value == -5.5 and row["measured_gpd"].data_type == "n"  # negative number stays
    assert row["passes"].value is False and row["passes"].data_type == "b"
    assert row["test_date"].is_date and row["test_date"].value.date() == dt.date(2026, 5, 1)
    bills = wb["sewer_bills"]
    header = [c.value for c in bills[1]]
    total = bills.cell(row=2, column=header.index("total_usd") + 1)
    assert isinstance(total.value, (int, float)) and total.number_format == '"$"#,##0.00'
    runs = wb["billing_runs"]
    header = [c.value for c in runs[1]]
    rates = runs.cell(row=2, column=header.index("rates_json") + 1).value
    assert "{" not in rates and "district: consolidated" in rates and "rate per unit: " in rates
    rates_cell = runs.cell(row=2, column=header.index("rates_json") + 1)
    assert rates_cell.alignment.wrap_text and runs.row_dimensions[2].height >= 15 * rates.count("\n")
    # A wide sheet prints at full size across pages, its first column repeated; a narrow one fits the width.
    assert runs.print_title_cols == "$A:$A" and not runs.sheet_properties.pageSetUpPr.fitToPage
    assert q.sheet_properties.pageSetUpPr.fitToPage and q.page_setup.fitToWidth == 1
    # the register came along
    assert (out / "billing" / "sewer_register_2026.xlsx").exists()


def test_export_of_a_missing_warehouse_exits_2(tmp_path, capsys):
    assert main(["export", "--warehouse", str(tmp_path / "nope.duckdb"), "--out", str(tmp_path / "o")]) == 2
    assert "no such warehouse file" in capsys.readouterr().err


def test_a_long_text_is_cut_to_what_a_cell_holds():
    columns = [spreadsheets.Column("text", "text")]
    rows = [("x" * 40_000,), ("=" + "y" * 40_000,)]
    data = spreadsheets.xlsx_bytes([spreadsheets.Sheet("s", columns, rows)], title="t")
    ws = openpyxl.load_workbook(io.BytesIO(data))["s"]
    assert len(ws["A2"].value) == spreadsheets.XLSX_MAX_CHARS and ws["A2"].value.endswith(
        spreadsheets.CUT_NOTE
    )
    assert ws["A3"].data_type == "s" and ws["A3"].quotePrefix


def test_same_rows_same_workbook_bytes():
    columns = [
        spreadsheets.Column("a", "text"),
        spreadsheets.Column("b", "money"),
        spreadsheets.Column("c", "date"),
    ]
    rows = [("x", Decimal("1.50"), dt.date(2026, 1, 2))]
    one = spreadsheets.xlsx_bytes([spreadsheets.Sheet("s", columns, rows)], title="t", town="Town")
    two = spreadsheets.xlsx_bytes([spreadsheets.Sheet("s", columns, rows)], title="t", town="Town")
    assert one == two


def test_the_benchmark_runs_and_reports(capsys):
    """The benchmark still bills and exports (its figures are printed, not judged here)."""
    from benchmarks.billing import main as bench

    bench(["--parcels", "300"])
    printed = capsys.readouterr().out
    assert (
        "export (CSV + XLSX" in printed
        and "sewer_register_2026.xlsx" in printed
        and "bill + export" in printed
    )


def test_lists_and_structs_become_json_text_in_a_csv():
    con = duckdb.connect()
    data = spreadsheets.query_csv_bytes(con, "SELECT ['=a', 'b'] AS ids, {'name': '@x'} AS who, -1.5 AS n")
    header, *rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    assert rows == [['["=a", "b"]', '{"name": "@x"}', "-1.5"]]
