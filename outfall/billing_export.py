"""The sewer register's files: CSV (the hashed register itself) and XLSX.

``export_register(con, out_dir)`` writes, for each billing year in ``sewer_bills``:

- ``sewer_register_<year>.csv``: the register, byte for byte what
  ``billing_runs.register_sha256`` hashes (:func:`register_csv_bytes`);
- ``sewer_register_<year>.xlsx``: one sheet per district (money formatted,
  header frozen), ``totals`` (per district and component: units, the rate and
  whether it was adopted in sewer_rates or derived from sewer_budget, amount;
  then the run's provenance), ``summary`` (by district and property class) and
  ``changes`` (what the run changed against the previous run and year);
- ``bill_changes_<year>.csv``: the latest run's changes, parcel by parcel;

and ``billing_summary.csv`` and ``billing_runs.csv`` for every year.

The workbook is built with openpyxl (styles, number formats, frozen panes, the
small sheets). The district sheets' rows, which can number 100,000, are written
into the saved package as plain SpreadsheetML built by DuckDB
(sql/select_register_sheet_xml.sql), with the repeated texts (class,
explanation, rule) stored once as shared strings: openpyxl writes about
150,000 cells a second, and the billing run must bill and export 100,000
parcels within 5 s. The zip entries carry a fixed date and the document's dates
are the run's, so the same register gives the same workbook bytes. Files are
written to a temporary name and renamed, so a reader never sees half a file.
Works on a read-only connection (nothing is written to the warehouse).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import os
import re
import zipfile
from decimal import Decimal
from pathlib import Path
from typing import Any, Sequence

import duckdb
import pandas as pd
import pyarrow.csv as pa_csv

from outfall.warehouse import sql

MONEY_FORMAT = "#,##0.00"
RATE_FORMAT = "#,##0.00####"
FIXED_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
EPOCH = dt.datetime(2000, 1, 1)

# The district sheets' columns, as select_register_sheet_rows returns them: (header, kind, width).
SHEET_COLUMNS: tuple[tuple[str, str, int], ...] = (
    ("parcel_id", "text", 14), ("property_class", "text", 20),
    ("units_bond", "int", 11), ("units_om", "int", 10), ("units_street_lateral", "int", 12),
    ("units_house_lateral", "int", 12),
    ("amount_bond", "money", 14), ("amount_om", "money", 14), ("amount_street_lateral", "money", 14),
    ("amount_house_lateral", "money", 14), ("total_usd", "money", 14),
    ("explanation", "text", 90), ("rule", "text", 70),
)
_COMPONENTS = ("bond", "om", "street_lateral", "house_lateral")


# ---------------------------------------------------------------------------
# canonical bytes and hashes


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def table_csv_bytes(con: duckdb.DuckDBPyConnection, query: str, params: dict | None = None) -> bytes:
    """A query's result as CSV bytes (header row; strings quoted; decimals exact)."""
    relation = con.sql(query, params=params) if params else con.sql(query)
    table = relation.to_arrow_table()
    buffer = io.BytesIO()
    pa_csv.write_csv(table, buffer)
    return buffer.getvalue()


def table_sha256(con: duckdb.DuckDBPyConnection, query: str, params: dict | None = None) -> str:
    """sha256 of a query's result in canonical CSV form (the fingerprint of input rows)."""
    return sha256_hex(table_csv_bytes(con, query, params))


def register_csv_bytes(con: duckdb.DuckDBPyConnection, year: int) -> bytes:
    """One billing year's register as CSV: what is hashed and what is exported."""
    return table_csv_bytes(con, sql("select_sewer_register"), {"year": int(year)})


# ---------------------------------------------------------------------------
# files


def _write_atomic(path: Path, data: bytes) -> Path:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return path


def _rows(con, name: str, params: dict | None = None) -> tuple[list[str], list[tuple]]:
    cursor = con.execute(sql(name), params or {})
    return [d[0] for d in cursor.description], cursor.fetchall()


def export_register(con: duckdb.DuckDBPyConnection, out_dir: str | Path) -> list[Path]:
    """Write the register of every billing year (CSV and XLSX), its changes, the
    summary and the run records into ``out_dir``; returns the paths written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    years = [int(r[0]) for r in con.execute(sql("select_register_years")).fetchall()]
    for year in years:
        written.append(_write_atomic(out / f"sewer_register_{year}.csv", register_csv_bytes(con, year)))
        run = _last_run(con, year)
        written.append(_write_atomic(out / f"sewer_register_{year}.xlsx", register_xlsx_bytes(con, year, run)))
        if run is not None:
            written.append(_write_atomic(out / f"bill_changes_{year}.csv",
                                         table_csv_bytes(con, sql("select_bill_changes_of_run"),
                                                         {"run_id": run["run_id"]})))
    written.append(_write_atomic(out / "billing_summary.csv", table_csv_bytes(con, sql("select_billing_summary"))))
    written.append(_write_atomic(out / "billing_runs.csv", table_csv_bytes(con, sql("select_billing_runs"))))
    return written


def _last_run(con, year: int) -> dict | None:
    names, rows = _rows(con, "select_last_billing_run_record", {"year": year})
    return dict(zip(names, rows[0])) if rows else None


# ---------------------------------------------------------------------------
# the workbook


def _sheet_title(name: str, taken: set[str]) -> str:
    title = re.sub(r"[\[\]:*?/\\]", "_", str(name))[:31] or "district"
    base, n = title, 2
    while title.lower() in taken:
        suffix = f"_{n}"
        title = base[:31 - len(suffix)] + suffix
        n += 1
    taken.add(title.lower())
    return title


def _plain(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC") if value.tzinfo else str(value)
    return value


def _table_sheet(wb, title: str, header: Sequence[str], rows: Sequence[Sequence[Any]],
                 formats: dict[int, str], widths: dict[int, int]):
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    ws = wb.create_sheet(title)
    ws.append(list(header))
    for cell in ws[1]:
        cell.font = Font(bold=True)
    ws.freeze_panes = "A2"
    for row in rows:
        ws.append([_plain(v) for v in row])
    for col, fmt in formats.items():
        for (cell,) in ws.iter_rows(min_row=2, min_col=col, max_col=col):
            if isinstance(cell.value, (int, float, Decimal)) and not isinstance(cell.value, bool):
                cell.number_format = fmt
    for col, width in widths.items():
        ws.column_dimensions[get_column_letter(col)].width = width
    return ws


def _add_totals(wb, con, year: int, run: dict | None) -> None:
    header = ["district", "component", "parcels_charged", "units", "rate_per_unit", "rate_source", "budget_usd",
              "amount_usd"]
    if run is not None:
        _, rows = _rows(con, "select_billing_run_totals", {"run_id": run["run_id"]})
    else:  # bills written without a run record: totals only, rates unknown
        _, raw = _rows(con, "select_billing_totals", {"year": year})
        rows = [(d, c, p, u, None, None, None, a) for d, c, p, u, a in raw]
    rows = [tuple(r) for r in rows]
    total = sum((r[7] for r in rows if r[7] is not None), start=0)
    body = rows + [("all districts", "all components", None, None, None, None, None, total)]
    ws = _table_sheet(wb, "totals", header, body, {5: RATE_FORMAT, 7: MONEY_FORMAT, 8: MONEY_FORMAT},
                      {1: 16, 2: 16, 3: 15, 4: 10, 5: 14, 6: 14, 7: 16, 8: 16})
    ws.append([])
    facts = [("billing year", year)]
    if run is not None:
        facts += [
            ("billing run", run["run_id"]), ("run at", _plain(run["run_at"])),
            ("rates from", run["rate_source"]), ("parcels billed", run["parcels_billed"]),
            ("total USD", run["total_usd"]), ("register sha256 (sewer_register CSV)", run["register_sha256"]),
            ("inputs sha256", run["inputs_sha256"]), ("parcels sha256", run["parcels_sha256"]),
            ("sewer_rates sha256", run["rates_sha256"]), ("sewer_budget sha256", run["budget_sha256"]),
            ("rules", f"{run['rules_jurisdiction']} {run['rules_version']} (sha256 {run['rules_sha256']})"),
            ("previous run", run["previous_run_id"]), ("previous run hash", run["previous_run_hash"]),
            ("run hash", run["run_hash"]), ("rule", run["rule"]),
        ]
    for key, value in facts:
        ws.append([key, _plain(value)])
        if key == "total USD":
            ws.cell(row=ws.max_row, column=2).number_format = MONEY_FORMAT


def _add_summary(wb, con, year: int) -> None:
    names, rows = _rows(con, "select_billing_summary_of_year", {"year": year})
    sums = [None, None] + [sum((r[i] for r in rows), start=0) for i in range(2, len(names))]
    body = [tuple(r) for r in rows] + ([("all districts", "all classes", *sums[2:])] if rows else [])
    _table_sheet(wb, "summary", names, body, {i: MONEY_FORMAT for i in range(8, 13)},
                 {1: 16, 2: 22, **{i: 13 for i in range(3, 13)}})


def _add_changes(wb, con, run: dict | None) -> None:
    header = ["compared_to", "compared_with", "change", "parcels", "total_change"]
    rows = []
    if run is not None:
        _, raw = _rows(con, "select_bill_change_counts", {"run_id": run["run_id"]})
        for compared_to, run_id, year, change, parcels, moved in raw:
            against = f"run {run_id}" if compared_to == "previous_run" else f"year {year}"
            rows.append((compared_to, against, change, parcels, moved))
    _table_sheet(wb, "changes", header, rows, {5: MONEY_FORMAT}, {1: 15, 2: 15, 3: 16, 4: 10, 5: 16})


def _district_template(wb, title: str) -> None:
    """A district sheet with its header and one probe row of money cells (whose
    style the streamed rows reuse); the rows themselves are streamed in later."""
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    ws = wb.create_sheet(title)
    ws.append([name for name, _, _ in SHEET_COLUMNS])
    for cell in ws[1]:
        cell.font = Font(bold=True)
    ws.freeze_panes = "A2"
    for i, (_, kind, width) in enumerate(SHEET_COLUMNS, start=1):
        ws.column_dimensions[get_column_letter(i)].width = width
        if kind == "money":
            ws.cell(row=2, column=i, value=0).number_format = MONEY_FORMAT


_PROBE_ROW = re.compile(rb'<row r="2"[^>]*>.*?</row>', re.S)
_STYLE = re.compile(rb' s="(\d+)"')
_DIMENSION = re.compile(rb'<dimension ref="[^"]*"\s*/>')


def _fill_district_sheet(xml: bytes, con, year: int, district: str) -> bytes:
    """Put the district's bills (built as SpreadsheetML by DuckDB, with the
    registered relation register_strings) where the template's probe row is,
    in the probe's money style."""
    from openpyxl.utils import get_column_letter

    probe = _PROBE_ROW.search(xml)
    style = _STYLE.search(probe.group(0)).group(1).decode() if probe else "0"
    rows, body = con.execute(sql("select_register_sheet_xml"),
                             {"year": year, "district": district, "money_style": style}).fetchall()[0]
    last = f"{get_column_letter(len(SHEET_COLUMNS))}{int(rows) + 1}".encode()
    head = xml[:probe.start()] if probe else xml[:xml.index(b"</sheetData>")]
    tail = xml[probe.end():] if probe else xml[xml.index(b"</sheetData>"):]
    head = _DIMENSION.sub(b'<dimension ref="A1:' + last + b'"/>', head, count=1)
    return b"".join((head, body.encode("utf-8"), tail))


_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
_SST_PART = "xl/sharedStrings.xml"
_SST_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
_SST_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"
_SST_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def _si(text: str) -> str:
    text = _XML_ILLEGAL.sub("", text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    space = ' xml:space="preserve"' if text != text.strip() else ""
    return f"<si><t{space}>{text}</t></si>"


def _shared_strings(existing: bytes | None, strings: list[str]) -> tuple[int, bytes]:
    """(index of the first added string, the shared-strings part with them appended)."""
    added = "".join(_si(t) for t in strings).encode("utf-8")
    if existing is None:
        n = len(strings)
        return 0, (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="{_SST_NS}" '
                   f'count="{n}" uniqueCount="{n}">').encode() + added + b"</sst>"
    base = len(re.findall(rb"<si[ >]", existing))
    total = str(base + len(strings)).encode()
    head, _, _ = existing.rpartition(b"</sst>")
    head = re.sub(rb'\s(?:count|uniqueCount)="\d+"', b"", head, count=2)
    head = head.replace(b"<sst ", b'<sst count="' + total + b'" uniqueCount="' + total + b'" ', 1)
    return base, head + added + b"</sst>"


def _sheet_parts(package: zipfile.ZipFile) -> dict[str, str]:
    """Sheet title -> its part name in the package (via workbook.xml and its rels)."""
    workbook = package.read("xl/workbook.xml").decode("utf-8")
    rels = package.read("xl/_rels/workbook.xml.rels").decode("utf-8")
    targets = {}
    for rel in re.finditer(r"<Relationship\b[^>]*>", rels):
        tag = rel.group(0)
        rid, target = re.search(r'Id="([^"]+)"', tag), re.search(r'Target="([^"]+)"', tag)
        if rid and target:
            t = target.group(1)
            targets[rid.group(1)] = t.lstrip("/") if t.startswith("/") else f"xl/{t}"
    parts = {}
    for sheet in re.finditer(r"<sheet\b[^>]*>", workbook):
        tag = sheet.group(0)
        name = re.search(r'name="([^"]+)"', tag)
        rid = re.search(r'r:id="([^"]+)"', tag) or re.search(r'\bid="([^"]+)"', tag)
        if name and rid and rid.group(1) in targets:
            title = name.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
            parts[title] = targets[rid.group(1)]
    return parts


_CORE_DATES = re.compile(rb"(<dcterms:(created|modified)[^>]*>)([^<]*)(</dcterms:\2>)")


def register_xlsx_bytes(con: duckdb.DuckDBPyConnection, year: int, run: dict | None = None) -> bytes:
    """One billing year's register as an XLSX workbook (see the module docstring)."""
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    taken = {"totals", "summary", "changes"}
    districts = [r[0] for r in con.execute(sql("select_register_districts"), {"year": year}).fetchall()]
    titles = {}
    for district in districts:
        title = _sheet_title(district, taken)
        titles[title] = district
        _district_template(wb, title)
    _add_totals(wb, con, year, run)
    _add_summary(wb, con, year)
    _add_changes(wb, con, run)
    stamp = run["run_at"] if run is not None and run.get("run_at") else None
    stamp = stamp.astimezone(dt.timezone.utc).replace(tzinfo=None, microsecond=0) if stamp else EPOCH
    wb.properties.created = stamp
    wb.properties.creator = "Outfall"
    wb.properties.title = f"Sewer register {year}"
    template = io.BytesIO()
    wb.save(template)

    iso = stamp.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    strings = [r[0] for r in con.execute(sql("select_register_strings"), {"year": year}).fetchall()]
    out = io.BytesIO()
    with zipfile.ZipFile(template) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        parts = {part: titles[title] for title, part in _sheet_parts(src).items() if title in titles}
        names = src.namelist()
        had_sst = _SST_PART in names
        base, sst = _shared_strings(src.read(_SST_PART) if had_sst else None, strings)

        def put(name: str, data: bytes, level: int = 6) -> None:
            entry = zipfile.ZipInfo(name, date_time=FIXED_ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            dst.writestr(entry, data, compresslevel=level)

        con.register("register_strings", pd.DataFrame({"s": strings, "i": range(base, base + len(strings))},
                                                      columns=["s", "i"]).astype({"s": object, "i": "int64"}))
        try:
            for name in names:
                data = src.read(name)
                if name in parts:
                    put(name, _fill_district_sheet(data, con, year, parts[name]), level=1)
                    continue
                if name == _SST_PART:
                    data = sst
                elif name == "docProps/core.xml":
                    data = _CORE_DATES.sub(lambda m: m.group(1) + iso + m.group(4), data)
                elif name == "[Content_Types].xml" and not had_sst:
                    data = data.replace(b"</Types>", f'<Override PartName="/{_SST_PART}" ContentType="{_SST_TYPE}"/>'
                                                     f"</Types>".encode())
                elif name == "xl/_rels/workbook.xml.rels" and not had_sst:
                    data = data.replace(b"</Relationships>", f'<Relationship Type="{_SST_REL}" '
                                                             f'Target="sharedStrings.xml" Id="rIdOutfallStrings"/>'
                                                             f"</Relationships>".encode())
                put(name, data)
            if not had_sst:
                put(_SST_PART, sst)
        finally:
            con.unregister("register_strings")
    return out.getvalue()
