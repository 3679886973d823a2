"""The sewer register's files: CSV (the clerk's register, and the bills as billed) and XLSX.

``export_register(con, out_dir)`` writes, for each billing year in ``sewer_bills``:

- ``sewer_register_<year>.csv``: the register as the clerk reads it and a mail merge
  takes it: headers in words ("Parcel", "Owner", "Operation and maintenance amount
  (USD)"), the owner, the mailing address, city, state and ZIP in columns of their
  own (from ``parcels`` as it stands; blank where the parcels input has none),
  districts and property classes in words (:mod:`outfall.billing_words`; the
  districts' names from the rules);
- ``sewer_bills_<year>.csv``: the same bills with the warehouse's codes and the
  columns of ``sewer_bills``, the machine-readable register; byte for byte what
  ``billing_runs.register_sha256`` hashes (:func:`bills_csv_bytes`), its UTF-8
  byte-order mark included, so ``sha256sum`` of the file equals the recorded hash.
  Owners and addresses are not in it: they are not billing inputs;
- ``sewer_register_<year>.xlsx``, the workbook a clerk hands over:
  one sheet per district (Parcel, Owner, Mailing address, Property class,
  Bond units, O&M units, Street lateral units, House lateral units, Bond, O&M,
  Street lateral, House lateral, Total, How the units were counted, Law; a
  totals row under the bills), ``Totals`` (per district and component: units,
  the rate and whether it was adopted or derived from the budget, amount),
  ``Summary`` (by district and property class), ``Addresses to complete`` (how many bills lack a full
  mailing address for the mail merge, by the one address rule of every letter, and which), ``Inspection
  fees`` (the water
  and sewer inspection fees, the inspection fee law, of the permits applied for that
  year, with their total; one sentence when there are none), ``Changes`` (what
  the run changed against the previous run and year) and ``About`` (the run's
  record: fingerprints, rules, hash chain). Every total is a ``SUBTOTAL(9, ...)``
  formula over the rows above it, its value cached in the file;
- ``bill_changes_<year>.csv``: the latest run's changes, parcel by parcel, in words;

and ``billing_summary.csv`` (in words) and ``billing_runs.csv`` (the runs' record as
kept, for an auditor: codes, JSON and hashes) for every year.

Every file goes through the writers of :mod:`outfall.spreadsheets` (BOM, formula
neutralisation, typed cells, print set-up). The district sheets' rows, which
can number 100,000, are built as SpreadsheetML by DuckDB
(sql/billing/select_register_sheet_xml.sql), with the repeated texts (class,
explanation, law) stored once as shared strings: the billing run must bill
and export 100,000 parcels within 5 s. Owner and mailing address are read from
``parcels`` as it stands. The document's dates are the run's, so the same
register gives the same workbook bytes. Works on a read-only connection.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pyarrow.csv as pa_csv

from outfall.billing_words import (
    change_word,
    class_codes,
    class_word,
    component_word,
    district_names,
    district_word,
    rate_source_word,
    rates_adopted_by,
    word_lists,
)
from outfall.letters import Recipient, address_problems
from outfall.rules import RulesError, load_rules
from outfall.spreadsheets import (
    FORMULA_PATTERN,
    LINE_POINTS,
    MAX_LINES,
    Column,
    Sheet,
    Styles,
    formula_like,
    line_chars,
    query_csv_bytes,
    sheet_title,
    text_lines,
    write_atomic,
    xlsx_bytes,
)
from outfall.warehouse import sql

# The district sheets' columns, in the order select_register_sheet_xml writes them (A-O).
# Widths keep the sheet narrow enough to print one page wide in landscape.
REGISTER_COLUMNS: tuple[Column, ...] = (
    Column("Parcel", "text", 14),
    Column("Owner", "text", 22, wrap=True),
    Column("Mailing address", "text", 24, wrap=True),
    Column("Property class", "text", 13, wrap=True),
    Column("Bond units", "int", 7),
    Column("O&M units", "int", 7),
    Column("Street lateral units", "int", 7),
    Column("House lateral units", "int", 7),
    Column("Bond", "money", 14),
    Column("O&M", "money", 14),
    Column("Street lateral", "money", 14),
    Column("House lateral", "money", 14),
    Column("Total", "money", 15),
    Column("How the units were counted", "text", 44, wrap=True),
    Column("Law", "text", 40, wrap=True),
)
_CLASS, _OWNER, _ADDRESS = REGISTER_COLUMNS[3], REGISTER_COLUMNS[1], REGISTER_COLUMNS[2]
_EXPLANATION, _LAW = REGISTER_COLUMNS[13], REGISTER_COLUMNS[14]


def class_label(code: Any) -> str:
    """A property class as the workbook shows it: "Single-family"."""
    word = class_word(code)
    return word[:1].upper() + word[1:]


# ---------------------------------------------------------------------------
# canonical bytes and hashes


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def table_csv_bytes(con: duckdb.DuckDBPyConnection, query: str, params: dict | None = None) -> bytes:
    """A query's result in canonical CSV form (header row; strings quoted;
    decimals exact): what input fingerprints hash. Not a file a person opens
    (no byte-order mark, nothing neutralised): files go through
    :mod:`outfall.spreadsheets`."""
    relation = con.sql(query, params=params) if params else con.sql(query)
    table = relation.to_arrow_table()
    buffer = io.BytesIO()
    pa_csv.write_csv(table, buffer)
    return buffer.getvalue()


def table_sha256(con: duckdb.DuckDBPyConnection, query: str, params: dict | None = None) -> str:
    """sha256 of a query's result in canonical CSV form (the fingerprint of input rows)."""
    return sha256_hex(table_csv_bytes(con, query, params))


def bills_csv_bytes(con: duckdb.DuckDBPyConnection, year: int) -> bytes:
    """One billing year's bills with the warehouse's codes as the file's bytes (BOM included):
    ``sewer_bills_<year>.csv``, what is hashed (billing_runs.register_sha256)."""
    return query_csv_bytes(con, sql("select_sewer_register"), {"year": int(year)})


def register_csv_bytes(
    con: duckdb.DuckDBPyConnection, year: int, names: dict[str, str], classes: list[str] | None = None
) -> bytes:
    """One billing year's register in words, for the clerk and a mail merge
    (``sewer_register_<year>.csv``); ``names``: the districts' names (:func:`district_names`); ``classes``:
    the schedule's property classes (:func:`class_codes`)."""
    return query_csv_bytes(
        con, sql("select_register_for_mail_merge"), {"year": int(year), **word_lists(names, classes or [])}
    )


# ---------------------------------------------------------------------------
# files


def _rows(con, name: str, params: dict | None = None) -> tuple[list[str], list[tuple]]:
    cursor = con.execute(sql(name), params or {})
    return [d[0] for d in cursor.description], cursor.fetchall()


def export_register(
    con: duckdb.DuckDBPyConnection, out_dir: str | Path, rules: Any = None, years: list[int] | None = None
) -> list[Path]:
    """Write the register of every billing year (CSV in words, CSV of the bills as billed, XLSX), its
    changes, the summary and the run records into ``out_dir``; returns the paths written. ``rules``: the
    rules the districts' names come from (default: those the last billing run of each year used).
    ``years``: only those years' files (a partition's), with the summary and the run records of every
    year; another year's files are not touched."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    registered = [int(r[0]) for r in con.execute(sql("select_register_years")).fetchall()]
    latest_names: dict[str, str] = {}  # the summary's district names: the latest year's that has some
    latest_classes: list[str] = []
    for year in registered:
        year_rules = rules if rules is not None else _run_rules(_last_run(con, year))
        names = district_names(year_rules, year)
        latest_names = names or latest_names
        latest_classes = class_codes(year_rules, year) or latest_classes
    for year in registered if years is None else [y for y in registered if y in set(years)]:
        run = _last_run(con, year)
        year_rules = rules if rules is not None else _run_rules(run)
        names, classes = district_names(year_rules, year), class_codes(year_rules, year)
        written.append(
            write_atomic(out / f"sewer_register_{year}.csv", register_csv_bytes(con, year, names, classes))
        )
        written.append(write_atomic(out / f"sewer_bills_{year}.csv", bills_csv_bytes(con, year)))
        written.append(
            write_atomic(
                out / f"sewer_register_{year}.xlsx",
                register_xlsx_bytes(
                    con,
                    year,
                    run,
                    names=names,
                    town=year_rules.name if year_rules is not None else "",
                    rules=year_rules,
                ),
            )
        )
        if run is not None:
            written.append(
                write_atomic(
                    out / f"bill_changes_{year}.csv",
                    query_csv_bytes(
                        con,
                        sql("select_bill_changes_in_words"),
                        {"run_id": run["run_id"], **word_lists(names, classes, changes=True)},
                    ),
                )
            )
    written.append(
        write_atomic(
            out / "billing_summary.csv",
            query_csv_bytes(
                con, sql("select_billing_summary_in_words"), word_lists(latest_names, latest_classes)
            ),
        )
    )
    written.append(write_atomic(out / "billing_runs.csv", query_csv_bytes(con, sql("select_billing_runs"))))
    return written


def _last_run(con, year: int) -> dict | None:
    names, rows = _rows(con, "select_last_billing_run_record", {"year": year})
    return dict(zip(names, rows[0])) if rows else None


# ---------------------------------------------------------------------------
# the workbook


def _run_rules(run: dict | None) -> Any:
    """The rules a billing run used (by its jurisdiction), or None."""
    if run is None or not run.get("rules_jurisdiction"):
        return None
    try:
        return load_rules(run["rules_jurisdiction"])
    except Exception:  # noqa: BLE001 - names and a page header are not worth failing the register for
        return None


def _district_sheet(con, year: int, title: str, totals: tuple) -> Sheet:
    district, parcels, *sums = totals

    def rows(styles: Styles, first_row: int) -> tuple[int, str]:
        n, body = con.execute(
            sql("select_register_sheet_xml"),
            {
                "year": year,
                "district": district,
                "first_row": first_row,
                "formula_pattern": FORMULA_PATTERN,
                "plain": styles.plain,
                "quoted": styles.quoted,
                "wrap": styles.wrap,
                "wrap_quoted": styles.wrap_quoted,
                "money": styles.money,
                # owner and address are wrapped by length (with room for word breaks); the shared texts' lines
                # are counted word by word in register_strings
                "owner_chars": int(line_chars(_OWNER.width) * 0.85),
                "address_chars": int(line_chars(_ADDRESS.width) * 0.85),
                "line_points": LINE_POINTS,
                "max_lines": MAX_LINES,
            },
        ).fetchall()[0]
        return int(n), body

    label = f"Total, {int(parcels):,} parcel{'s' if parcels != 1 else ''}"
    return Sheet(
        title,
        REGISTER_COLUMNS,
        xml_rows=rows,
        row_count=int(parcels),
        fit_width=True,
        totals=(label, None, None, None, *sums, None, None),
    )


def _totals_sheet(con, year: int, run: dict | None, names: dict[str, str], by: str = "") -> Sheet:
    columns = [
        Column("District", width=28),
        Column("Component", width=14),
        Column("Parcels charged", "int", 10),
        Column("Units", "int", 10),
        Column("Rate per unit", "rate", 14),
        Column("Rate from", width=34, wrap=True),
        Column("Budget", "money", 16),
        Column("Amount", "money", 16),
    ]
    if run is not None:
        _, raw = _rows(con, "select_billing_run_totals", {"run_id": run["run_id"]})
    else:  # bills written without a run record: totals only, rates unknown
        _, plain = _rows(con, "select_billing_totals", {"year": year})
        raw = [(d, c, p, u, None, None, None, a) for d, c, p, u, a in plain]
    rows = [
        (district_word(d, names), component_word(c), p, u, rate, rate_source_word(src, by), budget, amount)
        for d, c, p, u, rate, src, budget, amount in raw
    ]
    total = sum((r[7] for r in raw if r[7] is not None), start=Decimal("0"))
    return Sheet("Totals", columns, rows, totals=("All districts", None, None, None, None, None, None, total))


def _summary_sheet(con, year: int, names: dict[str, str]) -> Sheet:
    _, raw = _rows(con, "select_billing_summary_of_year", {"year": year})
    columns = [
        Column("District", width=28),
        Column("Property class", width=20),
        Column("Parcels", "int", 9),
        Column("Bond units", "int", 9),
        Column("O&M units", "int", 9),
        Column("Street lateral units", "int", 9),
        Column("House lateral units", "int", 9),
        Column("Bond", "money", 15),
        Column("O&M", "money", 15),
        Column("Street lateral", "money", 15),
        Column("House lateral", "money", 15),
        Column("Total", "money", 16),
    ]
    rows = [(district_word(r[0], names), class_label(r[1]), *r[2:]) for r in raw]
    sums = [sum((r[i] for r in raw if r[i] is not None), start=0) for i in range(2, 12)]
    return Sheet("Summary", columns, rows, totals=("All districts", "All classes", *sums) if raw else None)


def _changes_sheet(con, run: dict | None) -> Sheet:
    columns = [
        Column("Compared with", width=34),
        Column("Change", width=34),
        Column("Parcels", "int", 10),
        Column("Change in total billed", "money", 18),
    ]
    rows: list[tuple] = []
    if run is not None:
        _, raw = _rows(con, "select_bill_change_counts", {"run_id": run["run_id"]})
        for compared_to, run_id, year, change, parcels, moved in raw:
            against = (
                f"The year's previous billing run (run {run_id})"
                if compared_to == "previous_run"
                else f"The {year} register"
            )
            rows.append((against, change_word(change), parcels, moved))
        if not rows:
            compared = run.get("previous_run_id") is not None or run.get("compared_year") is not None
            rows.append(
                (
                    "",
                    "No parcel's bill changed"
                    if compared
                    else "First register: no earlier run or year to compare with",
                    None,
                    None,
                )
            )
    else:
        rows.append(("", "No billing run is recorded for these bills", None, None))
    return Sheet("Changes", columns, rows)


def _about_sheet(year: int, run: dict | None, town: str, by: str = "") -> Sheet:
    columns = [
        Column("About this register", width=38, wrap=True),
        Column("Details", "auto", width=80, wrap=True),
    ]
    facts: list[tuple[str, Any]] = []
    if town:
        facts.append(("Town", town))
    facts.append(("Billing year", year))
    if run is not None:
        facts += [
            ("Billing run", run["run_id"]),
            ("Run at (local time)", run["run_at"]),
            ("Rates from", rate_source_word(run["rate_source"], by)),
            ("Parcels billed", run["parcels_billed"]),
            ("Total billed", run["total_usd"]),
            ("Law", run["rule"]),
            (
                f"sha256 of sewer_bills_{year}.csv, the bills as billed (the file as written, byte-order "
                "mark included)",
                run["register_sha256"],
            ),
            ("sha256 of the inputs (parcels, sewer rates, sewer budget, rules)", run["inputs_sha256"]),
            ("sha256 of the parcels", run["parcels_sha256"]),
            ("sha256 of the sewer rates", run["rates_sha256"]),
            ("sha256 of the sewer budget", run["budget_sha256"]),
            (
                "Rules",
                f"{run['rules_jurisdiction']} version {run['rules_version']} (sha256 {run['rules_sha256']})",
            ),
            (
                "Previous run of this billing year",
                run["previous_run_id"] if run["previous_run_id"] is not None else "none",
            ),
            ("Hash of the run before this one (any year)", run["previous_run_hash"]),
            ("This run's hash (it covers this record and the hash before it)", run["run_hash"]),
        ]
    else:
        facts.append(("Billing run", "none recorded for these bills"))
    return Sheet("About", columns, facts, autofilter=False)


USE_LABELS = {"single_family": "Single-family residence", "commercial": "Commercial"}


def _has_table(con, table: str) -> bool:
    return bool(
        con.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [table]
        ).fetchall()[0][0]
    )


def _fees_law(rules: Any, year: int) -> str:
    """The short name of the town's inspection fee law in ``year``, from its rules ("" without one)."""
    try:
        return rules.law("inspection_fees", dt.date(year, 12, 31)).short if rules is not None else ""
    except RulesError:
        return ""


def bills_lacking_address(con, year: int | None = None) -> list[dict]:
    """The bills of ``year`` (None: the last year billed) whose owner's mailing address is not full by the
    one address rule of every letter (a name, a street line, a city, a state and a five- or nine-digit ZIP
    code: ``outfall.letters.address_problems``): year, parcel_id, owner, street, city, state, zip and
    ``lacks``, in words."""
    names, rows = _rows(con, "select_bills_lacking_address", {"year": year})
    out = []
    for r in (dict(zip(names, row)) for row in rows):
        recipient = Recipient(r["owner"], r["street"], r["city"], r["state"], r["zip"])
        problems = address_problems(recipient, "the parcels file")
        if problems:
            out.append({**r, "lacks": "; ".join(problems)})
    return out


def _addresses_sheet(con, year: int) -> Sheet:
    """How many of the year's bills lack a full mailing address, and which: the mail merge's gaps."""
    lacking = bills_lacking_address(con, year)
    bills = int(con.execute(sql("count_dashboard_bills_of_year"), {"year": year}).fetchall()[0][1])
    sentence = (
        f"{len(lacking):,} of the {bills:,} bills of {year} lack a full mailing address (a name, a street "
        "line, a city, a state and a five- or nine-digit ZIP code): complete them in the parcels file "
        "before the mail merge."
        if lacking
        else f"Every one of the {bills:,} bills of {year} has a full mailing address."
    )
    columns = [
        Column("Parcel", width=14),
        Column("Owner", width=24, wrap=True),
        Column("Mailing address", width=24, wrap=True),
        Column("City", width=14),
        Column("State", width=6),
        Column("ZIP", width=8),
        Column("What it lacks", width=60, wrap=True),
    ]
    rows = [
        (r["parcel_id"], r["owner"], r["street"], r["city"], r["state"], r["zip"], r["lacks"])
        for r in lacking
    ]
    totals = (f"{len(lacking):,} bills", None, None, None, None, None, sentence)
    return Sheet(
        "Addresses to complete", columns, rows, totals=totals, subtotals=False, autofilter=bool(rows)
    )


def _fees_sheet(con, year: int, law: str = "") -> Sheet:
    """The water and sewer inspection fees (the inspection fee law) of the permits applied for in
    ``year``, with their total; one plain sentence when no permit was applied for that year."""
    columns = [
        Column("Permit", width=14),
        Column("Parcel", width=14),
        Column("Owner", width=22, wrap=True),
        Column("Applied on", "date", 11),
        Column("Use", width=20),
        Column("In a mall or business park", width=11),
        Column("Water inspection fee", "money", 13),
        Column("Sewer inspection fee", "money", 13),
        Column("Total", "money", 13),
        Column("Law", width=50, wrap=True),
    ]
    raw = (
        _rows(con, "select_register_inspection_fees", {"year": year})[1]
        if _has_table(con, "inspection_fees")
        else []
    )
    if not raw:
        sentence = f"No connection permit applied for in {year} has a water or sewer inspection fee"
        sentence += f" ({law})." if law else "."
        return Sheet(
            "Inspection fees",
            [Column("Inspection fees", width=110, wrap=True)],
            [(sentence,)],
            autofilter=False,
        )
    rows = [
        (
            permit,
            parcel,
            owner,
            applied,
            USE_LABELS.get(use, use),
            "yes" if mall else "no",
            water,
            sewer,
            total,
            rule,
        )
        for permit, parcel, owner, applied, use, mall, water, sewer, total, rule in raw
    ]
    sums = [sum((r[i] for r in raw if r[i] is not None), start=Decimal("0")) for i in (6, 7, 8)]
    unpriced = sum(1 for r in raw if r[8] is None)
    label = f"Total, {len(raw):,} permit{'s' if len(raw) != 1 else ''}"
    note = f"{unpriced} not in the fee schedule" if unpriced else None
    return Sheet("Inspection fees", columns, rows, totals=(label, None, None, None, None, None, *sums, note))


def register_xlsx_bytes(
    con: duckdb.DuckDBPyConnection,
    year: int,
    run: dict | None = None,
    *,
    names: dict[str, str] | None = None,
    town: str | None = None,
    rules: Any = None,
) -> bytes:
    """One billing year's register as an XLSX workbook (see the module docstring). ``names``: the
    districts' names, ``town``: the town's and ``rules``: those the laws cited come from (default: from
    the rules the run used)."""
    taken = {"totals", "summary", "changes", "about", "inspection fees", "addresses to complete"}
    districts = con.execute(sql("select_register_districts"), {"year": year}).fetchall()
    rules = rules if rules is not None else _run_rules(run)
    if names is None or town is None:
        names = district_names(rules, year) if names is None else names
        town = (rules.name if rules is not None else "") if town is None else town
    sheets = [
        _district_sheet(con, year, sheet_title(district_word(d[0], names), taken), tuple(d))
        for d in districts
    ]
    sheets += [
        _totals_sheet(con, year, run, names, rates_adopted_by(rules, year)),
        _summary_sheet(con, year, names),
        _addresses_sheet(con, year),
        _fees_sheet(con, year, _fees_law(rules, year)),
        _changes_sheet(con, run),
        _about_sheet(year, run, town, rates_adopted_by(rules, year)),
    ]

    found = con.execute(sql("select_register_strings"), {"year": year}).fetchall()

    def shared_strings(base: int):
        texts = [class_label(s) if kind == "class" else s for kind, s in found]
        kinds = [k for k, _ in found]
        # lines each text takes in its column: class in Property class; other texts in
        # How the units were counted (lines_n) and in Law (lines_o)
        lines_n = [
            text_lines(t, line_chars((_CLASS if k == "class" else _EXPLANATION).width))
            for k, t in zip(kinds, texts)
        ]
        lines_o = [text_lines(t, line_chars(_LAW.width)) for t in texts]
        frame = pd.DataFrame(
            {
                "kind": kinds,
                "s": [s for _, s in found],
                "i": range(base, base + len(found)),
                "q": [formula_like(t) for t in texts],
                "lines_n": lines_n,
                "lines_o": lines_o,
            },
            columns=["kind", "s", "i", "q", "lines_n", "lines_o"],
        ).astype(
            {"kind": object, "s": object, "i": "int64", "q": bool, "lines_n": "int64", "lines_o": "int64"}
        )
        con.register("register_strings", frame)
        return texts, lambda: con.unregister("register_strings")

    stamp = run["run_at"] if run is not None and run.get("run_at") else None
    return xlsx_bytes(
        sheets, title=f"Sewer register {year}", town=town, stamp=stamp, shared_strings=shared_strings
    )
