"""The sewer register's files: CSV (the hashed register itself) and XLSX.

``export_register(con, out_dir)`` writes, for each billing year in ``sewer_bills``:

- ``sewer_register_<year>.csv``: the register, one row per bill with the
  columns of ``sewer_bills``; byte for byte what ``billing_runs.register_sha256``
  hashes (:func:`register_csv_bytes`). The hash covers the whole file as
  written, its UTF-8 byte-order mark included, so ``sha256sum`` of the file
  equals the recorded hash. (Registers billed before the byte-order mark and
  the formula neutralisation were added hashed the file without them: the
  first billing run after the upgrade records a new run, with no bill changed.)
- ``sewer_register_<year>.xlsx``, the workbook a clerk hands over:
  one sheet per district (Parcel, Owner, Mailing address, Property class,
  Bond units, O&M units, Street lateral units, House lateral units, Bond, O&M,
  Street lateral, House lateral, Total, How the units were counted, Law; a
  totals row under the bills), ``Totals`` (per district and component: units,
  the rate and whether it was adopted or derived from the budget, amount),
  ``Summary`` (by district and property class), ``Changes`` (what the run
  changed against the previous run and year), ``Inspection fees`` (the water and
  sewer inspection fees, Woodbury ch. 301, of the permits applied for that year,
  with their total; only when there are some) and ``About`` (the run's record:
  fingerprints, rules, hash chain);
- ``bill_changes_<year>.csv``: the latest run's changes, parcel by parcel;

and ``billing_summary.csv`` and ``billing_runs.csv`` for every year.

Every file goes through the writers of :mod:`outfall.exports` (BOM, formula
neutralisation, typed cells, print set-up). The district sheets' rows, which
can number 100,000, are built as SpreadsheetML by DuckDB
(sql/billing/select_register_sheet_xml.sql), with the repeated texts (class,
explanation, law) stored once as shared strings: the billing run must bill
and export 100,000 parcels within 5 s. Owner and mailing address are read from
``parcels`` as it stands. The document's dates are the run's, so the same
register gives the same workbook bytes. Works on a read-only connection.
"""

from __future__ import annotations

import hashlib
import io
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pyarrow.csv as pa_csv

from outfall.exports import (FORMULA_PATTERN, LINE_POINTS, MAX_LINES, Column, Sheet, Styles, formula_like,
                             line_chars, query_csv_bytes, sheet_title, text_lines, write_atomic, xlsx_bytes)
from outfall.warehouse import sql

# The district sheets' columns, in the order select_register_sheet_xml writes them (A-O).
# Widths keep the sheet narrow enough to print one page wide in landscape.
REGISTER_COLUMNS: tuple[Column, ...] = (
    Column("Parcel", "text", 14),
    Column("Owner", "text", 22, wrap=True),
    Column("Mailing address", "text", 24, wrap=True),
    Column("Property class", "text", 13, wrap=True),
    Column("Bond units", "int", 7), Column("O&M units", "int", 7),
    Column("Street lateral units", "int", 7), Column("House lateral units", "int", 7),
    Column("Bond", "money", 14), Column("O&M", "money", 14), Column("Street lateral", "money", 14),
    Column("House lateral", "money", 14), Column("Total", "money", 15),
    Column("How the units were counted", "text", 44, wrap=True),
    Column("Law", "text", 40, wrap=True),
)
_CLASS, _OWNER, _ADDRESS = REGISTER_COLUMNS[3], REGISTER_COLUMNS[1], REGISTER_COLUMNS[2]
_EXPLANATION, _LAW = REGISTER_COLUMNS[13], REGISTER_COLUMNS[14]
SHEET_COLUMNS = REGISTER_COLUMNS

# Words a reader knows for the warehouse's codes (display only).
DISTRICT_LABELS = {"consolidated": "Consolidated Sewer District", "district_1": "Sewer District #1"}
COMPONENT_LABELS = {"bond": "Bond", "om": "O&M", "street_lateral": "Street lateral", "house_lateral": "House lateral"}
RATE_SOURCE_LABELS = {"sewer_rates": "adopted rate (sewer rates)",
                      "sewer_budget": "budget divided by the district's units (sewer budget)"}
CHANGE_LABELS = {
    "added": "New in the register", "removed": "No longer in the register",
    "reclassed": "Property class changed", "moved_district": "Moved to another district",
    "units_up": "More units", "units_down": "Fewer units", "units_changed": "Units changed (some up, some down)",
    "amount_up": "Higher amount, same units", "amount_down": "Lower amount, same units",
}


def district_label(code: Any) -> str:
    return DISTRICT_LABELS.get(code, str(code))


def class_label(code: Any) -> str:
    return str(code).replace("_", " ").capitalize()


def component_label(code: Any) -> str:
    return COMPONENT_LABELS.get(code, str(code))


def rate_source_label(code: Any) -> str:
    if code is None:
        return ""
    return " + ".join(RATE_SOURCE_LABELS.get(part, part) for part in str(code).split("+"))


# ---------------------------------------------------------------------------
# canonical bytes and hashes


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def table_csv_bytes(con: duckdb.DuckDBPyConnection, query: str, params: dict | None = None) -> bytes:
    """A query's result in canonical CSV form (header row; strings quoted;
    decimals exact): what input fingerprints hash. Not a file a person opens
    (no byte-order mark, nothing neutralised): files go through
    :mod:`outfall.exports`."""
    relation = con.sql(query, params=params) if params else con.sql(query)
    table = relation.to_arrow_table()
    buffer = io.BytesIO()
    pa_csv.write_csv(table, buffer)
    return buffer.getvalue()


def table_sha256(con: duckdb.DuckDBPyConnection, query: str, params: dict | None = None) -> str:
    """sha256 of a query's result in canonical CSV form (the fingerprint of input rows)."""
    return sha256_hex(table_csv_bytes(con, query, params))


def register_csv_bytes(con: duckdb.DuckDBPyConnection, year: int) -> bytes:
    """One billing year's register as the CSV file's bytes (BOM included): what
    is hashed (billing_runs.register_sha256) and what is exported."""
    return query_csv_bytes(con, sql("select_sewer_register"), {"year": int(year)})


# ---------------------------------------------------------------------------
# files


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
        written.append(write_atomic(out / f"sewer_register_{year}.csv", register_csv_bytes(con, year)))
        run = _last_run(con, year)
        written.append(write_atomic(out / f"sewer_register_{year}.xlsx", register_xlsx_bytes(con, year, run)))
        if run is not None:
            written.append(write_atomic(out / f"bill_changes_{year}.csv",
                                        query_csv_bytes(con, sql("select_bill_changes_of_run"),
                                                        {"run_id": run["run_id"]})))
    written.append(write_atomic(out / "billing_summary.csv", query_csv_bytes(con, sql("select_billing_summary"))))
    written.append(write_atomic(out / "billing_runs.csv", query_csv_bytes(con, sql("select_billing_runs"))))
    return written


def _last_run(con, year: int) -> dict | None:
    names, rows = _rows(con, "select_last_billing_run_record", {"year": year})
    return dict(zip(names, rows[0])) if rows else None


# ---------------------------------------------------------------------------
# the workbook


def _town(run: dict | None) -> str:
    if run is None or not run.get("rules_jurisdiction"):
        return ""
    try:
        from outfall.rules import load_rules

        return load_rules(run["rules_jurisdiction"]).name
    except Exception:  # noqa: BLE001 - a page header is not worth failing the register for
        return ""


def _district_sheet(con, year: int, title: str, totals: tuple) -> Sheet:
    district, parcels, *sums = totals

    def rows(styles: Styles, first_row: int) -> tuple[int, str]:
        n, body = con.execute(sql("select_register_sheet_xml"), {
            "year": year, "district": district, "first_row": first_row, "formula_pattern": FORMULA_PATTERN,
            "plain": styles.plain, "quoted": styles.quoted, "wrap": styles.wrap,
            "wrap_quoted": styles.wrap_quoted, "money": styles.money,
            # owner and address are wrapped by length (with room for word breaks); the shared texts' lines
            # are counted word by word in register_strings
            "owner_chars": int(line_chars(_OWNER.width) * 0.85),
            "address_chars": int(line_chars(_ADDRESS.width) * 0.85),
            "line_points": LINE_POINTS, "max_lines": MAX_LINES}).fetchall()[0]
        return int(n), body

    label = f"Total, {int(parcels):,} parcel{'s' if parcels != 1 else ''}"
    return Sheet(title, REGISTER_COLUMNS, xml_rows=rows, row_count=int(parcels), fit_width=True,
                 totals=(label, None, None, None, *sums, None, None))


def _totals_sheet(con, year: int, run: dict | None) -> Sheet:
    columns = [Column("District", width=28), Column("Component", width=14), Column("Parcels charged", "int", 10),
               Column("Units", "int", 10), Column("Rate per unit", "rate", 14), Column("Rate from", width=34, wrap=True),
               Column("Budget", "money", 16), Column("Amount", "money", 16)]
    if run is not None:
        _, raw = _rows(con, "select_billing_run_totals", {"run_id": run["run_id"]})
    else:  # bills written without a run record: totals only, rates unknown
        _, plain = _rows(con, "select_billing_totals", {"year": year})
        raw = [(d, c, p, u, None, None, None, a) for d, c, p, u, a in plain]
    rows = [(district_label(d), component_label(c), p, u, rate, rate_source_label(src), budget, amount)
            for d, c, p, u, rate, src, budget, amount in raw]
    total = sum((r[7] for r in raw if r[7] is not None), start=Decimal("0"))
    return Sheet("Totals", columns, rows, totals=("All districts", None, None, None, None, None, None, total))


def _summary_sheet(con, year: int) -> Sheet:
    _, raw = _rows(con, "select_billing_summary_of_year", {"year": year})
    columns = [Column("District", width=28), Column("Property class", width=20), Column("Parcels", "int", 9),
               Column("Bond units", "int", 9), Column("O&M units", "int", 9), Column("Street lateral units", "int", 9),
               Column("House lateral units", "int", 9), Column("Bond", "money", 15), Column("O&M", "money", 15),
               Column("Street lateral", "money", 15), Column("House lateral", "money", 15),
               Column("Total", "money", 16)]
    rows = [(district_label(r[0]), class_label(r[1]), *r[2:]) for r in raw]
    sums = [sum((r[i] for r in raw if r[i] is not None), start=0) for i in range(2, 12)]
    return Sheet("Summary", columns, rows, totals=("All districts", "All classes", *sums) if raw else None)


def _changes_sheet(con, run: dict | None) -> Sheet:
    columns = [Column("Compared with", width=34), Column("Change", width=34), Column("Parcels", "int", 10),
               Column("Change in total billed", "money", 18)]
    rows: list[tuple] = []
    if run is not None:
        _, raw = _rows(con, "select_bill_change_counts", {"run_id": run["run_id"]})
        for compared_to, run_id, year, change, parcels, moved in raw:
            against = (f"The year's previous billing run (run {run_id})" if compared_to == "previous_run"
                       else f"The {year} register")
            rows.append((against, CHANGE_LABELS.get(change, change), parcels, moved))
        if not rows:
            compared = run.get("previous_run_id") is not None or run.get("compared_year") is not None
            rows.append(("", "No parcel's bill changed" if compared
                         else "First register: no earlier run or year to compare with", None, None))
    else:
        rows.append(("", "No billing run is recorded for these bills", None, None))
    return Sheet("Changes", columns, rows)


def _about_sheet(year: int, run: dict | None, town: str) -> Sheet:
    columns = [Column("About this register", width=38, wrap=True), Column("Details", "auto", width=80, wrap=True)]
    facts: list[tuple[str, Any]] = []
    if town:
        facts.append(("Town", town))
    facts.append(("Billing year", year))
    if run is not None:
        facts += [
            ("Billing run", run["run_id"]),
            ("Run at (local time)", run["run_at"]),
            ("Rates from", rate_source_label(run["rate_source"])),
            ("Parcels billed", run["parcels_billed"]),
            ("Total billed", run["total_usd"]),
            ("Law", run["rule"]),
            (f"sha256 of sewer_register_{year}.csv (the file as written, byte-order mark included)",
             run["register_sha256"]),
            ("sha256 of the inputs (parcels, sewer rates, sewer budget, rules)", run["inputs_sha256"]),
            ("sha256 of the parcels", run["parcels_sha256"]),
            ("sha256 of the sewer rates", run["rates_sha256"]),
            ("sha256 of the sewer budget", run["budget_sha256"]),
            ("Rules", f"{run['rules_jurisdiction']} version {run['rules_version']} (sha256 {run['rules_sha256']})"),
            ("Previous run of this billing year",
             run["previous_run_id"] if run["previous_run_id"] is not None else "none"),
            ("Hash of the run before this one (any year)", run["previous_run_hash"]),
            ("This run's hash (it covers this record and the hash before it)", run["run_hash"]),
        ]
    else:
        facts.append(("Billing run", "none recorded for these bills"))
    return Sheet("About", columns, facts, autofilter=False)


USE_LABELS = {"single_family": "Single-family residence", "commercial": "Commercial"}


def _has_table(con, table: str) -> bool:
    return bool(con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = ?",
                            [table]).fetchall()[0][0])


def _fees_sheet(con, year: int) -> Sheet | None:
    """The water and sewer inspection fees (ch. 301) of the permits applied for in ``year``, with their
    total; None when no permit was applied for that year."""
    if not _has_table(con, "inspection_fees"):
        return None
    _, raw = _rows(con, "select_register_inspection_fees", {"year": year})
    if not raw:
        return None
    columns = [Column("Permit", width=14), Column("Parcel", width=14), Column("Owner", width=22, wrap=True),
               Column("Applied on", "date", 11), Column("Use", width=20), Column("In a mall or business park",
                                                                                 width=11),
               Column("Water inspection fee", "money", 13), Column("Sewer inspection fee", "money", 13),
               Column("Total", "money", 13), Column("Law", width=50, wrap=True)]
    rows = [(permit, parcel, owner, applied, USE_LABELS.get(use, use), "yes" if mall else "no",
             water, sewer, total, rule)
            for permit, parcel, owner, applied, use, mall, water, sewer, total, rule in raw]
    sums = [sum((r[i] for r in raw if r[i] is not None), start=Decimal("0")) for i in (6, 7, 8)]
    unpriced = sum(1 for r in raw if r[8] is None)
    label = f"Total, {len(raw):,} permit{'s' if len(raw) != 1 else ''}"
    note = f"{unpriced} not in the fee schedule" if unpriced else None
    return Sheet("Inspection fees", columns, rows, totals=(label, None, None, None, None, None, *sums, note))


def register_xlsx_bytes(con: duckdb.DuckDBPyConnection, year: int, run: dict | None = None) -> bytes:
    """One billing year's register as an XLSX workbook (see the module docstring)."""
    taken = {"totals", "summary", "changes", "about", "inspection fees"}
    districts = con.execute(sql("select_register_districts"), {"year": year}).fetchall()
    town = _town(run)
    sheets = [_district_sheet(con, year, sheet_title(district_label(d[0]), taken), tuple(d)) for d in districts]
    sheets += [_totals_sheet(con, year, run), _summary_sheet(con, year)]
    fees = _fees_sheet(con, year)
    if fees is not None:
        sheets.append(fees)
    sheets += [_changes_sheet(con, run), _about_sheet(year, run, town)]

    found = con.execute(sql("select_register_strings"), {"year": year}).fetchall()

    def shared_strings(base: int):
        texts = [class_label(s) if kind == "class" else s for kind, s in found]
        kinds = [k for k, _ in found]
        # lines each text takes in its column: class in Property class; other texts in
        # How the units were counted (lines_n) and in Law (lines_o)
        lines_n = [text_lines(t, line_chars((_CLASS if k == "class" else _EXPLANATION).width))
                   for k, t in zip(kinds, texts)]
        lines_o = [text_lines(t, line_chars(_LAW.width)) for t in texts]
        frame = pd.DataFrame({"kind": kinds, "s": [s for _, s in found], "i": range(base, base + len(found)),
                              "q": [formula_like(t) for t in texts], "lines_n": lines_n, "lines_o": lines_o},
                             columns=["kind", "s", "i", "q", "lines_n", "lines_o"]).astype(
            {"kind": object, "s": object, "i": "int64", "q": bool, "lines_n": "int64", "lines_o": "int64"})
        con.register("register_strings", frame)
        return texts, lambda: con.unregister("register_strings")

    stamp = run["run_at"] if run is not None and run.get("run_at") else None
    return xlsx_bytes(sheets, title=f"Sewer register {year}", town=town, stamp=stamp, shared_strings=shared_strings)
